/// Which files are descriptors: the one rule of the generator's CLI, the selection, and both build plugins.
///
/// The plugins cannot import a package target, so this file is shared with them as a symbolic link in each
/// plugin's folder (`Plugins/*/DescriptorFileRule.swift`): it must compile on its own, with nothing but the
/// standard library.
public enum DescriptorFileRule {
    /// The name of an app target's selection of catalog providers (`latchkey-providers.json`), never a descriptor.
    public static let selectionFileName = "latchkey-providers.json"

    /// Whether a file is a descriptor: a `.json` file that is neither a JSON Schema (`*.schema.json`) nor the
    /// selection file.
    /// - Parameter fileName: The file's last path component.
    /// - Returns: `true` for a descriptor.
    public static func isDescriptor(fileName: String) -> Bool {
        fileName.hasSuffix(".json") && fileName.count > ".json".count && !fileName.hasSuffix(".schema.json")
            && fileName != selectionFileName
    }
}
