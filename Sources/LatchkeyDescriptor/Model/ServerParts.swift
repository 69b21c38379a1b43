extension Descriptor {
    /// An input's `require` (format version 2): the value must pass at least one of the tests, else the
    /// client is not created (a server-side client that needs a secret key, say).
    public struct InputRequirement: Sendable, Hashable {
        /// One test: exactly one of `prefix` or `jwtClaim` (with `equals`).
        public struct Test: Sendable, Hashable {
            /// Values that start with it pass.
            public var prefix: String?
            /// JWTs whose payload has this claim ...
            public var jwtClaim: String?
            /// ... equal to this pass.
            public var equals: String?
        }

        /// The tests, of which one must pass.
        public var anyOf: [Test]
        /// The error code when none passes (default `invalid_configuration`).
        public var code: String
        /// The message for developers.
        public var message: String
    }

    /// A request's `pagination` (format version 2): where a list answer says how many items there are and
    /// which pages follow.
    public struct Pagination: Sendable, Hashable {
        /// The response header holding the total count (`x-total-count`).
        public var totalHeader: String?
        /// The response header holding RFC 8288 links with `rel="next"` and `rel="last"` (`link`).
        public var linkHeader: String?
        /// The query parameter of those links' URLs holding the page number (`page`).
        public var pageParameter: String
    }
}
