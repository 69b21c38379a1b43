import Foundation

/// Reads, parses, decodes and validates descriptor files.
public enum DescriptorLoader {
    /// The largest descriptor file accepted, in bytes.
    public static let maximumFileSize = 4 * 1024 * 1024

    /// The outcome of loading one descriptor.
    public struct Result: Sendable {
        /// The descriptor, or `nil` when it has errors.
        public var descriptor: Descriptor?
        /// Every problem found, in file order.
        public var diagnostics: [Diagnostic]

        /// Whether any diagnostic is an error.
        public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    }

    /// Loads a descriptor from bytes.
    /// - Parameters:
    ///   - bytes: The file's contents.
    ///   - fileName: The file's name, whose stem should equal the descriptor's name.
    /// - Returns: The descriptor (when valid) and all diagnostics.
    public static func load(bytes: [UInt8], fileName: String? = nil) -> Result {
        if bytes.count > maximumFileSize {
            return Result(
                descriptor: nil,
                diagnostics: [.error("the file is larger than \(maximumFileSize / 1024 / 1024) MiB", at: .start)])
        }
        let parsed = JSONParser.parse(bytes)
        guard let root = parsed.root else { return Result(descriptor: nil, diagnostics: parsed.diagnostics) }
        let sink = DiagnosticSink()
        parsed.diagnostics.forEach(sink.add)
        let decoder = DescriptorDecoder(sink: sink)
        let descriptor = decoder.decode(root)
        if let descriptor {
            decoder.checkReferences(descriptor)
            decoder.checkLinks(descriptor, root: root)
            decoder.checkSubClients(descriptor, root: root)
            if let fileName {
                let stem = (fileName as NSString).deletingPathExtension
                if stem != descriptor.name, let nameNode = root.object?["name"] {
                    sink.error(
                        "the descriptor is named \"\(descriptor.name)\" but its file is \"\(fileName)\"", at: nameNode,
                        fixIt: "rename the file to \(descriptor.name).json or change \"name\"")
                }
            }
        }
        let diagnostics = sink.diagnostics
        let failed = diagnostics.contains { $0.severity == .error }
        return Result(descriptor: failed ? nil : descriptor, diagnostics: diagnostics)
    }

    /// Loads a descriptor file.
    /// - Parameter path: The file's path.
    /// - Returns: The descriptor (when valid) and all diagnostics.
    public static func load(path: String) -> Result {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            return Result(descriptor: nil, diagnostics: [.error("cannot read the file", at: .start)])
        }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: maximumFileSize + 1)) ?? Data()
        return load(bytes: Array(data), fileName: (path as NSString).lastPathComponent)
    }

    /// Checks a set of valid descriptors together: names and Swift type names must be unique.
    /// - Parameter descriptors: The descriptors with their paths.
    /// - Returns: Diagnostics keyed by path.
    public static func checkCollisions(_ descriptors: [(path: String, descriptor: Descriptor)]) -> [(
        String, Diagnostic
    )] {
        var byType: [String: String] = [:]
        var result: [(String, Diagnostic)] = []
        for (path, descriptor) in descriptors.sorted(by: { $0.path < $1.path }) {
            let type = GeneratedNames.client(descriptor.swiftName)
            if let other = byType[type.lowercased()] {
                result.append(
                    (
                        path,
                        .error(
                            "the client type \(type) collides with the one generated from \(other)", at: .start,
                            pointer: "/swiftName", fixIt: "set a different \"swiftName\"")
                    ))
            }
            byType[type.lowercased()] = path
        }
        return result
    }
}
