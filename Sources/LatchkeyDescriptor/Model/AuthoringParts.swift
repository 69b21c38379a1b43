extension Descriptor {
    /// `clientSecret` (format version 2): whether the client cannot work without a secret supplied at run time.
    public struct ClientSecret: Sendable, Hashable {
        /// Whether the generated client's initializer refuses to be created without a secret.
        public var required: Bool
        /// Why, in the provider's terms; shown in the initializer's documentation and its error.
        public var reason: String?

        /// Creates a client-secret declaration.
        public init(required: Bool, reason: String? = nil) {
            self.required = required
            self.reason = reason
        }
    }

    /// One condition of an error row's `match` (format version 2): the value at a JSON pointer of the
    /// error body.
    public struct MemberMatch: Sendable, Hashable {
        /// Where the value is.
        public var pointer: String
        /// The value it must have, as text (`"invalid"`, `"40"`, `"true"`).
        public var equals: String

        /// Creates a condition.
        public init(pointer: String, equals: String) {
            self.pointer = pointer
            self.equals = equals
        }
    }
}
