extension Descriptor.Flows {
    /// Client credentials grant (RFC 6749 §4.4): a token request authenticating the client.
    public struct ClientCredentials: Sendable, Hashable {
        /// The token request.
        public var request: String
        /// Default scopes.
        public var scopes: [String]
        /// Scope separator.
        public var scopeSeparator: String
    }

    /// OpenID Connect RP-initiated logout: the end-session URL and its query.
    public struct EndSession: Sendable, Hashable {
        /// The end-session URL.
        public var url: Template
        /// Its query parameters.
        public var query: [Named<Value>]
    }
}
