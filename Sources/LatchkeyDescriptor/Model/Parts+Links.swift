extension Descriptor {
    /// Sessions accepted in a callback URL's fragment (format version 2).
    public struct ImplicitSession: Sendable, Hashable {
        /// The redirect URI names that accept them (`default`, or a `redirectURIs` name).
        public var redirects: [String]
        /// The fragment parameter naming the kind of link.
        public var typeParameter: String?
        /// Event names by kind of link.
        public var events: [Named<String>]
    }

    /// The PKCE flow an action's emailed link completes (format version 2).
    public struct LinkPKCE: Sendable, Hashable {
        /// The value of `{code_challenge_method}`.
        public var method: String
        /// Configured redirect URI names tried in order.
        public var redirects: [String]
        /// How long the verifier is kept, in seconds.
        public var lifetime: Int?
        /// The event published after the exchange.
        public var event: String?
        /// Parameters of which one must be given for the challenge to be sent (empty: always).
        public var when: [String] = []
    }
}
