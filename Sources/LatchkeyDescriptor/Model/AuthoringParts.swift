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

extension Descriptor {
    /// `captures.NAME` (format version 2): a value read from a response, kept with the session and usable as
    /// `{NAME}` in later requests.
    public struct Capture: Sendable, Hashable {
        /// The request whose answer holds the value, sent once after every sign-in; `nil` for every token
        /// response (sign-in and refresh).
        public var request: String?
        /// Where the value is in the response's JSON body.
        public var pointer: String?
        /// The response header holding the value.
        public var header: String?

        /// Creates a capture.
        public init(request: String? = nil, pointer: String? = nil, header: String? = nil) {
            self.request = request
            self.pointer = pointer
            self.header = header
        }
    }
}
