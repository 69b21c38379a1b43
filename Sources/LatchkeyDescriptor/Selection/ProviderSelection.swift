import Foundation

/// The catalog providers an app selects in its `latchkey-providers.json`, so that only their clients are
/// generated into the app and it pays for no other provider.
///
/// The file is one JSON object with one key:
///
/// ```json
/// { "providers": ["supabase", "oidc"] }
/// ```
///
/// Each name is a descriptor name of the Latchkey catalog (`Descriptors/<name>.json`). An unknown key, a name
/// the catalog does not have (with a "did you mean"), a repeated name or a value of the wrong type is an error
/// at its line and column, which the build shows as `latchkey-providers.json:LINE:COL: error: …`.
public enum ProviderSelection {
    /// The name of the selection file in an app target's folder.
    public static let fileName = DescriptorFileRule.selectionFileName

    /// The largest selection file accepted, in bytes.
    public static let maximumFileSize = 64 * 1024

    /// The outcome of reading a selection file.
    public struct Result: Sendable {
        /// The selected descriptor names in file order, or `nil` when the file has errors.
        public var names: [String]?
        /// Every problem found, in file order.
        public var diagnostics: [Diagnostic]
    }

    /// Reads a selection from bytes.
    /// - Parameters:
    ///   - bytes: The file's contents.
    ///   - catalog: The descriptor names the catalog offers.
    /// - Returns: The selected names (when valid) and all diagnostics.
    public static func read(bytes: [UInt8], catalog: [String]) -> Result {
        if bytes.count > maximumFileSize {
            return Result(names: nil, diagnostics: [.error("the file is larger than 64 KiB", at: .start)])
        }
        let parsed = JSONParser.parse(bytes)
        guard let root = parsed.root, !parsed.hasErrors else {
            return Result(names: nil, diagnostics: parsed.diagnostics)
        }
        let sink = DiagnosticSink()
        let names = selectedNames(in: root, catalog: catalog.sorted(), sink: sink)
        return Result(names: sink.hasErrors ? nil : names, diagnostics: sink.diagnostics)
    }

    /// Reads a selection file.
    /// - Parameters:
    ///   - path: The file's path.
    ///   - catalog: The descriptor names the catalog offers.
    /// - Returns: The selected names (when valid) and all diagnostics.
    public static func read(path: String, catalog: [String]) -> Result {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            return Result(names: nil, diagnostics: [.error("cannot read the file", at: .start)])
        }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: maximumFileSize + 1)) ?? Data()
        return read(bytes: Array(data), catalog: catalog)
    }

    private static func selectedNames(in root: JSONNode, catalog: [String], sink: DiagnosticSink) -> [String] {
        guard let object = root.object else {
            sink.error(
                "a provider selection must be a JSON object, found \(root.typeName)", at: root,
                fixIt: "write it as { \"providers\": [\"supabase\"] }")
            return []
        }
        for member in object.members where member.key != "providers" {
            let suggestion = Suggestions.closest(to: member.key, among: ["providers"])
            sink.error(
                "unknown key \"\(member.key)\"", at: member.keyLocation, pointer: member.value.pointer.description,
                fixIt: suggestion.map { "did you mean \"\($0)\"?" } ?? "the only key is \"providers\"")
        }
        guard let list = object["providers"] else {
            sink.error(
                "missing required key \"providers\" (the catalog descriptor names to generate)", at: root,
                fixIt: "add \"providers\": [\"supabase\"]")
            return []
        }
        guard let elements = list.array else {
            sink.error(
                "\"providers\" must be an array of descriptor names, found \(list.typeName)", at: list,
                fixIt: "write it as [\"supabase\"]")
            return []
        }
        var names: [String] = []
        for element in elements {
            guard let name = element.string else {
                sink.error("a provider must be a descriptor name (a string), found \(element.typeName)", at: element)
                continue
            }
            if names.contains(name) {
                sink.error("\"\(name)\" is selected twice", at: element, fixIt: "remove the repeated name")
                continue
            }
            if !catalog.contains(name) {
                let suggestion = Suggestions.closest(to: name, among: catalog)
                sink.error(
                    "the Latchkey catalog has no provider \"\(name)\"", at: element,
                    fixIt: suggestion.map { "did you mean \"\($0)\"?" }
                        ?? "the catalog has: \(catalog.joined(separator: ", "))")
            }
            names.append(name)
        }
        return names
    }
}
