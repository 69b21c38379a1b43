import LatchkeyVocabulary

/// An input's `values` (format version 2): the only values it accepts, generated as a Swift enum.
extension DescriptorDecoder {
    /// Type names an input's enum may not take: the client's own nested types and the modules its code names.
    static let reservedInputEnumNames: Set<String> = [
        "SignOutScope", "Swift", "Foundation", "LatchkeyRuntime", "Latchkey", "SwiftUI", "Label", "Self", "Type",
        "Protocol", "Any",
    ]

    /// Reads and checks `values`: a non-empty array (at most 64) of distinct non-empty strings (at most 200
    /// bytes each) whose case names differ, on a `string` input whose `default` (if any) is one of them.
    func decodeInputValues(_ node: JSONNode, input: Descriptor.Input, defaultNode: JSONNode?) -> [String] {
        requireFormatVersion(2, for: "input \"values\"", at: node)
        guard let items = node.array, !items.isEmpty, items.count <= 64 else {
            sink.error(
                "\"values\" must be an array of 1 to 64 strings", at: node,
                fixIt: "list the values the input accepts, e.g. [\"us\", \"eu\"]")
            return []
        }
        if input.type != .string {
            sink.error(
                "\"values\" needs a string input (this one is \(input.type.rawValue))", at: node,
                fixIt: "remove \"values\" or the input's \"type\"")
            return []
        }
        var values: [String] = []
        var caseNames: [String: String] = [:]
        for item in items {
            guard let value = ObjectReader.string(item, sink, "a value") else { continue }
            guard !value.isEmpty, value.utf8.count <= 200 else {
                sink.error("a value must be 1 to 200 bytes", at: item)
                continue
            }
            let caseName = SwiftNames.inputEnumCaseName(value)
            if values.contains(value) {
                sink.error("\"\(value.prefix(40))\" is listed twice", at: item, fixIt: "list each value once")
                continue
            }
            if let other = caseNames[caseName] {
                sink.error(
                    "\"\(value.prefix(40))\" and \"\(other.prefix(40))\" give the same Swift case \(caseName)",
                    at: item, fixIt: "values must differ in more than punctuation and case")
                continue
            }
            caseNames[caseName] = value
            values.append(value)
        }
        let enumName = SwiftNames.inputEnumName(input.name)
        if Self.reservedInputEnumNames.contains(enumName) {
            sink.error(
                "the input \"\(input.name)\" would generate an enum named \(enumName), a name the client already uses",
                at: node, fixIt: "rename the input")
            return []
        }
        if let defaultValue = input.defaultValue, !values.isEmpty, !values.contains(defaultValue) {
            sink.error(
                "the default \"\(defaultValue.prefix(40))\" is not one of \"values\"", at: defaultNode ?? node,
                fixIt: "add it to \"values\" or change the default")
        }
        return values
    }
}

extension SwiftNames {
    /// The generated enum's name for an input (`region` → `Region`).
    public static func inputEnumName(_ inputName: String) -> String {
        SwiftNames.upperCamelCase(inputName.prefix(1).uppercased() + inputName.dropFirst())
    }

    /// The generated case name for a value (`eu-west-1` → `euWest1`, `default` → `` `default` ``).
    public static func inputEnumCaseName(_ value: String) -> String {
        SwiftNames.identifier(SwiftNames.lowerCamelCase(value))
    }
}
