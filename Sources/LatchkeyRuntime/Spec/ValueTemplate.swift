import LatchkeyVocabulary

// `ValueTemplate` itself is the vocabulary's (`LatchkeyVocabulary`): the descriptor
// decoder parses a descriptor's templates once, generated code holds their segments, and the runtime fills them
// without parsing.

/// A JSON value whose strings are ``ValueTemplate``s: request bodies and parameters.
///
/// When a string is exactly one variable and that variable has no value (an optional parameter
/// left out), the member or parameter is omitted from the request.
@_spi(Generated) public indirect enum JSONTemplate: Sendable {
    /// A string, filled from variables.
    case string(ValueTemplate)
    /// A number, by its JSON lexeme.
    case number(String)
    /// A boolean.
    case bool(Bool)
    /// JSON `null`.
    case null
    /// An object, members in order.
    case object([Member])
    /// An array.
    case array([JSONTemplate])

    /// One member of an object template.
    public struct Member: Sendable {
        /// The member name.
        public var name: String
        /// The member value.
        public var value: JSONTemplate

        /// Creates a member.
        /// - Parameters:
        ///   - name: The member name.
        ///   - value: The member value.
        public init(_ name: String, _ value: JSONTemplate) {
            self.name = name
            self.value = value
        }
    }
}

/// A named parameter (query, form field or header) with a templated value.
@_spi(Generated) public struct ParameterSpec: Sendable {
    /// The parameter name as sent.
    public var name: String
    /// The value. A string that is exactly one absent variable omits the parameter.
    public var value: JSONTemplate

    /// Creates a parameter.
    /// - Parameters:
    ///   - name: The name as sent.
    ///   - value: The templated value.
    public init(_ name: String, _ value: JSONTemplate) {
        self.name = name
        self.value = value
    }
}
