import LatchkeyVocabulary

/// Client credentials grant (RFC 6749 §4.4): a server-side tool gets a token for itself.
///
/// The request authenticates the client (`basic` or `post`) with a secret the tool supplies at run time
/// through ``ProviderConfiguration/clientSecret``; a descriptor never holds one.
@_spi(Generated) public struct ClientCredentialsFlowSpec: Sendable {
    /// The token request, sent with `{scope}` (its response is a token response).
    public var request: String
    /// The scopes requested when the caller names none.
    public var defaultScopes: [String]
    /// How scopes are joined (a space by default).
    public var scopeSeparator: String

    /// Creates the spec.
    /// - Parameters:
    ///   - request: The token request's name.
    ///   - defaultScopes: The scopes requested when the caller names none.
    ///   - scopeSeparator: How scopes are joined.
    public init(request: String, defaultScopes: [String] = [], scopeSeparator: String = " ") {
        self.request = request
        self.defaultScopes = defaultScopes
        self.scopeSeparator = scopeSeparator
    }
}

/// OpenID Connect RP-initiated logout: the browser is sent to the provider's end-session endpoint and
/// comes back to the post-logout redirect URI with `state`.
@_spi(Generated) public struct EndSessionFlowSpec: Sendable {
    /// The purpose under which ``ProviderConfiguration/redirectURIs`` holds the post-logout redirect URI.
    public static let redirectPurpose = "postLogout"

    /// The end-session URL template (often `{discovered.end_session_endpoint}`).
    public var url: ValueTemplate
    /// The query: typically `id_token_hint` = `{id_token}`, `post_logout_redirect_uri` =
    /// `{post_logout_redirect_uri}`, `client_id` and `state` = `{state}`.
    public var query: [ParameterSpec]

    /// Creates the spec.
    /// - Parameters:
    ///   - url: The end-session URL template.
    ///   - query: The query parameters.
    public init(url: ValueTemplate, query: [ParameterSpec]) {
        self.url = url
        self.query = query
    }
}
