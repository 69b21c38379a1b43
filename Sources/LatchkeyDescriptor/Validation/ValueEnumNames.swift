/// The Swift enum the generator emits for an action parameter that declares `values`: one rule for the
/// generator, the decoder's checks and the docs.
///
/// - The enum's name: the action's name and the parameter's name in UpperCamelCase, joined
///   (`verifyOTP` + `type` → `VerifyOTPType`), nested in the client type.
/// - Each case: the value in lowerCamelCase (`phone_change` → `phoneChange`), its raw value the wire string.
///   A case that is a Swift keyword is written in backticks; one that would not be an identifier, or that
///   two values share, is refused when the descriptor is read.
public enum ValueEnumNames {
    /// Case names an enum cannot declare even in backticks, or that would shadow a member every
    /// `RawRepresentable` and `CaseIterable` enum has.
    public static let refusedCases: Set<String> = [
        "self", "Self", "init", "Type", "Protocol", "rawValue", "allCases", "hashValue",
    ]

    /// Names the client type already declares beside its value enums.
    public static let clientMemberTypes: Set<String> = ["SignOutScope"]

    /// The enum's name for a parameter of an action.
    /// - Parameters:
    ///   - action: The action's name.
    ///   - parameter: The parameter's name.
    public static func enumName(action: String, parameter: String) -> String {
        upperFirst(SwiftNames.lowerCamelCase(action)) + upperFirst(SwiftNames.lowerCamelCase(parameter))
    }

    /// The case name of a value.
    public static func caseName(_ value: String) -> String {
        SwiftNames.lowerCamelCase(value)
    }

    /// Why a value's case name cannot be used, or `nil` when it can.
    public static func problem(caseName name: String) -> String? {
        guard let first = name.unicodeScalars.first, isIdentifierHead(first),
            name.unicodeScalars.allSatisfy({ isIdentifierHead($0) || ("0"..."9").contains($0) })
        else {
            return "its case name \"\(name.prefix(40))\" is not a Swift identifier (ASCII letters, digits and "
                + "underscores, not starting with a digit, after joining words on - and _)"
        }
        if refusedCases.contains(name) { return "its case name \"\(name)\" is reserved in a Swift enum" }
        return nil
    }

    private static func isIdentifierHead(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_"
    }

    private static func upperFirst(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst()
    }
}
