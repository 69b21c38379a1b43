import LatchkeyVocabulary

/// One HTTP request a provider serves, as a descriptor declares it.
@_spi(Generated) public struct RequestSpec: Sendable {
    /// How the request body is encoded.
    public typealias Encoding = BodyEncoding

    /// How the client authenticates itself (RFC 6749 §2.3).
    public typealias ClientAuthentication = ClientAuthenticationMethod

    /// Which token, if any, goes in `Authorization: Bearer`.
    public typealias Authorization = RequestAuthorization

    /// What a successful response means.
    public typealias Response = ResponseMeaning

    /// The method, upper case.
    public var method: String
    /// The absolute URL template.
    public var url: ValueTemplate
    /// Query parameters.
    public var query: [ParameterSpec]
    /// Header fields beyond the provider's common ones.
    public var headers: [ParameterSpec]
    /// The body encoding.
    public var encoding: Encoding
    /// The body: members of a form or JSON object.
    public var body: [ParameterSpec]
    /// Client authentication.
    public var clientAuthentication: ClientAuthentication
    /// Bearer authorization.
    public var authorization: Authorization
    /// What a successful response means.
    public var response: Response
    /// Statuses that count as success besides 2xx (e.g. a logout that answers 401 for an already dead session).
    public var ignoredErrorStatuses: [Int]
    /// The scheme of the `Authorization` header of `.accessToken` requests (`Bearer`; Twitch's validate
    /// endpoint wants `OAuth`).
    public var authorizationScheme: String
    /// Where this request's token response keeps the session, when it differs from the provider's
    /// ``ProviderSpec/session`` (Firebase's refresh answers snake_case members); `nil` uses that one.
    public var session: SessionMapping?
    /// Where a list answer says how many items there are and which pages follow; `nil` for other answers.
    public var pagination: PaginationSpec?
    /// Whether a JSON body whose members are all left out is not sent (no body, no `Content-Type`), as
    /// supabase-swift sends an MFA challenge without a channel; `false`: `{}` is sent.
    public var omitsEmptyBody = false

    /// Creates a request spec.
    public init(
        method: String, url: ValueTemplate, query: [ParameterSpec] = [], headers: [ParameterSpec] = [],
        encoding: Encoding = .none, body: [ParameterSpec] = [], clientAuthentication: ClientAuthentication = .none,
        authorization: Authorization = .none, response: Response = .none, ignoredErrorStatuses: [Int] = [],
        authorizationScheme: String = "Bearer", session: SessionMapping? = nil, pagination: PaginationSpec? = nil,
        omitsEmptyBody: Bool = false
    ) {
        self.omitsEmptyBody = omitsEmptyBody
        self.method = method
        self.url = url
        self.query = query
        self.headers = headers
        self.encoding = encoding
        self.body = body
        self.clientAuthentication = clientAuthentication
        self.authorization = authorization
        self.response = response
        self.ignoredErrorStatuses = ignoredErrorStatuses
        self.authorizationScheme = authorizationScheme
        self.session = session
        self.pagination = pagination
    }
}
