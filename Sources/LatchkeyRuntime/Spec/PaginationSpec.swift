/// Where a list answer says how many items there are and which pages follow (a request's `pagination`):
/// GoTrue's admin lists answer `x-total-count` and an RFC 8288 `link` header whose URLs carry `page`.
@_spi(Generated) public struct PaginationSpec: Sendable {
    /// The response header holding the total count; `nil` when the provider sends none.
    public var totalHeader: String?
    /// The response header holding links with `rel="next"` and `rel="last"`; `nil` when there is none.
    public var linkHeader: String?
    /// The query parameter of those links' URLs holding the page number.
    public var pageParameter: String

    /// Creates a pagination spec.
    public init(totalHeader: String? = nil, linkHeader: String? = nil, pageParameter: String = "page") {
        self.totalHeader = totalHeader
        self.linkHeader = linkHeader
        self.pageParameter = pageParameter
    }
}

extension InputSpec {
    /// What every value of an input must be: it must pass at least one of the tests (a server-side client's
    /// secret key: `sb_secret_…`, or a JWT whose `role` is `service_role`).
    public struct Requirement: Sendable {
        /// The tests, of which one must pass.
        public var anyOf: [Rejection.Test]
        /// The error code when none passes (`invalid_configuration` by default).
        public var code: String
        /// The message for developers; it never quotes the value.
        public var message: String

        /// Creates a requirement.
        public init(anyOf: [Rejection.Test], code: String = "invalid_configuration", message: String) {
            self.anyOf = anyOf
            self.code = code
            self.message = message
        }
    }
}
