/// One HTTP request a provider serves, as a descriptor declares it.
@_spi(Generated) public struct RequestSpec: Sendable, Hashable {
    /// How the request body is encoded.
    public enum Encoding: String, Sendable, Hashable {
        /// No body; parameters go in the query.
        case none
        /// `application/x-www-form-urlencoded`.
        case form
        /// `application/json`.
        case json
    }

    /// How the client authenticates itself (RFC 6749 §2.3).
    public enum ClientAuthentication: String, Sendable, Hashable {
        /// A public client: `client_id` only, where the body template puts it.
        case none
        /// HTTP Basic with the client id and a secret supplied at run time.
        case basic
        /// `client_id` and `client_secret` form fields, the secret supplied at run time.
        case post
        /// HTTP Basic when the app supplies a secret at run time; a public client's request otherwise.
        case basicIfSecret = "basic_if_secret"
        /// `client_secret` in the body when the app supplies a secret at run time; left out otherwise.
        case postIfSecret = "post_if_secret"

        /// Whether a request may go without a secret (the `…_if_secret` methods, and `none`).
        public var isOptional: Bool { self == .none || self == .basicIfSecret || self == .postIfSecret }
    }

    /// Which token, if any, goes in `Authorization: Bearer`.
    public enum Authorization: String, Sendable, Hashable {
        /// None.
        case none
        /// The current session's access token (refreshed first when it is about to expire).
        case accessToken
    }

    /// What a successful response means.
    public enum Response: String, Sendable, Hashable {
        /// A token response: it becomes the new session.
        case session
        /// A user document: it becomes the session's user.
        case user
        /// A JSON document returned to the caller as it is.
        case document
        /// Nothing: any success status will do.
        case none
        /// Either a session or, when no access token is present, a user (sign-up awaiting confirmation).
        case sessionOrUser
    }

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

    /// Creates a request spec.
    public init(
        method: String, url: ValueTemplate, query: [ParameterSpec] = [], headers: [ParameterSpec] = [],
        encoding: Encoding = .none, body: [ParameterSpec] = [], clientAuthentication: ClientAuthentication = .none,
        authorization: Authorization = .none, response: Response = .none, ignoredErrorStatuses: [Int] = [],
        authorizationScheme: String = "Bearer", session: SessionMapping? = nil
    ) {
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
    }
}
