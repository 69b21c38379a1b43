import LatchkeyTokens

extension ErrorMappingSpec {
    /// One condition of a mapping row's `match`: the error body (or, in a callback row, the callback's
    /// parameters) carries ``value`` at ``pointer``.
    @_spi(Generated) public struct MemberCondition: Sendable {
        /// A JSON pointer into the error body (`/errors/0/field`); in a callback row, one segment naming a
        /// callback parameter (`/error_reason`).
        public var pointer: String
        /// The value, as text: a string as it is, an integer in decimal, `true` or `false`.
        public var value: String

        /// Creates a condition.
        /// - Parameters:
        ///   - pointer: Where the value is.
        ///   - value: What it must be.
        public init(pointer: String, value: String) {
            self.pointer = pointer
            self.value = value
        }
    }
}

extension ErrorMappingSpec.Rule {
    /// Whether every ``match`` condition holds.
    /// - Parameter member: The text at a pointer, or `nil` when there is none.
    func membersMatch(_ member: (String) -> String?) -> Bool {
        match.allSatisfy { member($0.pointer) == $0.value }
    }
}

extension ErrorClassifier {
    /// The text of the member at `pointer` of an error body, as a row's `match` compares it: a string, an
    /// integer in decimal, `true` or `false`.
    static func memberText(_ document: JSON?, _ pointer: String) -> String? {
        let value = document?.value(at: pointer)
        if case .bool(let flag)? = value { return flag ? "true" : "false" }
        return SessionDecoder.text(value)
    }
}
