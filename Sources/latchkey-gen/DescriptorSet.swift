import Foundation
import LatchkeyDescriptor
import LatchkeyGenerator

/// Loads a set of descriptor files, prints their diagnostics, and renders them.
struct DescriptorSet {
    var loaded: [(path: String, descriptor: Descriptor)] = []
    var failed = false
    /// The loaded files that clash with another (same name or Swift name).
    var collided: Set<String> = []

    /// The descriptor files of a directory, sorted.
    static func files(in directory: String) throws(UsageError) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw UsageError("no descriptors directory at '\(directory)'")
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { DescriptorFileRule.isDescriptor(fileName: $0) }.sorted()
            .map { (directory as NSString).appendingPathComponent($0) }
    }

    /// Loads and validates files (on every core), printing every diagnostic in the order of `paths`.
    init(paths: [String]) {
        let results = OrderedParallelMap.map(paths) { DescriptorLoader.load(path: $0) }
        for (path, result) in zip(paths, results) {
            for diagnostic in result.diagnostics { Console.error(diagnostic.formatted(file: path)) }
            if let descriptor = result.descriptor {
                loaded.append((path, descriptor))
            } else {
                failed = true
            }
        }
        for (path, diagnostic) in DescriptorLoader.checkCollisions(loaded) {
            Console.error(diagnostic.formatted(file: path))
            collided.insert(path)
            failed = true
        }
    }

    /// The templates directory to use: the given one, `Templates` when it exists, else built-in.
    static func templatesDirectory(_ given: String?) throws(UsageError) -> String? {
        if let given {
            guard FileManager.default.fileExists(atPath: given) else {
                throw UsageError("no templates directory at '\(given)'")
            }
            return given
        }
        return FileManager.default.fileExists(atPath: "Templates") ? "Templates" : nil
    }

    /// Renders the provider index of every loaded descriptor.
    func renderIndex(templates: String?) throws -> String {
        try Generator(templatesDirectory: templates).renderIndex(loaded.map(\.descriptor))
    }

    /// Renders every loaded descriptor (on every core): output file name → source, in the order loaded. The
    /// first descriptor (in that order) that fails to render is the error.
    func render(templates: String?) throws -> [(descriptorPath: String, fileName: String, source: String)] {
        let generator = try Generator(templatesDirectory: templates)
        let rendered = OrderedParallelMap.map(loaded) { path, descriptor in
            Result { () throws(TemplateError) -> String in
                try generator.render(descriptor, fileName: (path as NSString).lastPathComponent)
            }
        }
        return try zip(loaded, rendered).map { loaded, source in
            (loaded.path, Generator.outputFileName(forDescriptorFile: loaded.path), try source.get())
        }
    }

    /// Renders every loaded descriptor (on every core), handing each output file name and source to `write` in
    /// the order loaded, as soon as the ones before it were written: only the clients rendered ahead of the
    /// writer are held, never every client's code. A descriptor that fails to render is the error; the files
    /// before it (in that order) are written, none after it.
    func renderEach(templates: String?, _ write: (_ fileName: String, _ source: String) throws -> Void) throws {
        let generator = try Generator(templatesDirectory: templates)
        try OrderedParallelMap.forEach(loaded) { path, descriptor in
            let source = Result { () throws(TemplateError) -> String in
                try generator.render(descriptor, fileName: (path as NSString).lastPathComponent)
            }
            return (fileName: Generator.outputFileName(forDescriptorFile: path), source: source)
        } consume: { rendered in
            try write(rendered.fileName, try rendered.source.get())
        }
    }

    /// Renders the vendor-SDK surface of every loaded descriptor that declares one: module, file name and source,
    /// in the order loaded.
    func renderVendorSDKs(templates: String?) throws -> [(descriptorPath: String, module: String, source: String)] {
        let generator = try Generator(templatesDirectory: templates)
        return try loaded.compactMap { path, descriptor in
            guard let module = descriptor.vendorSDK?.module,
                let source = try generator.renderVendorSDK(
                    descriptor, fileName: (path as NSString).lastPathComponent)
            else { return nil }
            return (path, module, source)
        }
    }

    /// Reports every vendor-SDK module declared by more than one loaded descriptor; `true` when there is none.
    func checkVendorModules() -> Bool {
        var owners: [String: String] = [:]
        var unique = true
        for (path, descriptor) in loaded {
            guard let module = descriptor.vendorSDK?.module else { continue }
            if let owner = owners[module] {
                Console.error(
                    "\(path):1:1: error: the vendor-SDK module \(module) is already declared by \(owner); "
                        + "each module has one descriptor")
                unique = false
            } else {
                owners[module] = path
            }
        }
        return unique
    }
}
