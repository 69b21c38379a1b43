import LatchkeyVocabulary

/// The grants and flows a provider declares. A flow that is `nil` does not exist on the generated client.
@_spi(Generated) public struct FlowSet: Sendable {
    /// Email or username and password (resource owner password credentials, or a provider's own form).
    public var password: PasswordFlowSpec?
    /// Authorization code in a browser, with PKCE.
    public var authorizationCode: AuthorizationCodeFlowSpec?
    /// Refreshing the session with its refresh token.
    public var refresh: RefreshFlowSpec?
    /// Ending the session.
    public var signOut: SignOutFlowSpec?
    /// Fetching the signed-in user.
    public var userInfo: UserInfoFlowSpec?
    /// OAuth 2.0 device authorization grant (RFC 8628).
    public var deviceCode: DeviceCodeFlowSpec?
    /// OAuth 2.0 client credentials grant (RFC 6749 §4.4), for server-side tools holding a secret.
    public var clientCredentials: ClientCredentialsFlowSpec?
    /// OpenID Connect RP-initiated logout: ending the provider's browser session.
    public var endSession: EndSessionFlowSpec?

    /// Creates a flow set.
    public init(
        password: PasswordFlowSpec? = nil, authorizationCode: AuthorizationCodeFlowSpec? = nil,
        refresh: RefreshFlowSpec? = nil, signOut: SignOutFlowSpec? = nil, userInfo: UserInfoFlowSpec? = nil,
        deviceCode: DeviceCodeFlowSpec? = nil, clientCredentials: ClientCredentialsFlowSpec? = nil,
        endSession: EndSessionFlowSpec? = nil
    ) {
        self.password = password
        self.authorizationCode = authorizationCode
        self.refresh = refresh
        self.signOut = signOut
        self.userInfo = userInfo
        self.deviceCode = deviceCode
        self.clientCredentials = clientCredentials
        self.endSession = endSession
    }
}

/// Password sign-in: one request with `{username}` and `{password}`.
@_spi(Generated) public struct PasswordFlowSpec: Sendable {
    /// The request that signs in (its response is a session).
    public var request: String
    /// The argument label the generated client uses for the identifier (`email`, `username`, `loginID`).
    public var identifierLabel: String

    /// Creates the spec.
    public init(request: String, identifierLabel: String = "email") {
        self.request = request
        self.identifierLabel = identifierLabel
    }
}

/// Authorization code flow with PKCE.
@_spi(Generated) public struct AuthorizationCodeFlowSpec: Sendable {
    /// The authorization URL template (often `{discovered.authorization_endpoint}`).
    public var authorizeURL: ValueTemplate
    /// The authorization request's query parameters.
    public var authorizeQuery: [ParameterSpec]
    /// The request that exchanges the code (its response is a session).
    public var exchangeRequest: String
    /// Whether a nonce is generated and checked in the ID token.
    public var usesNonce: Bool
    /// Whether the callback carries `state` back (a provider with its own flow state may not).
    public var returnsState: Bool
    /// The scopes requested when the app names none.
    public var defaultScopes: [String]
    /// How scopes are joined (a space by default; some providers use a comma).
    public var scopeSeparator: String
    /// Whether the user is fetched from the user-info flow after the exchange.
    public var fetchesUser: Bool
    /// How long a pending sign-in may wait for its callback, in seconds.
    public var pendingLifetime: Double

    /// Creates the spec.
    public init(
        authorizeURL: ValueTemplate, authorizeQuery: [ParameterSpec], exchangeRequest: String,
        usesNonce: Bool = false, returnsState: Bool = true, defaultScopes: [String] = [], scopeSeparator: String = " ",
        fetchesUser: Bool = false, pendingLifetime: Double = 600
    ) {
        self.authorizeURL = authorizeURL
        self.authorizeQuery = authorizeQuery
        self.exchangeRequest = exchangeRequest
        self.usesNonce = usesNonce
        self.returnsState = returnsState
        self.defaultScopes = defaultScopes
        self.scopeSeparator = scopeSeparator
        self.fetchesUser = fetchesUser
        self.pendingLifetime = pendingLifetime
    }
}

/// Refresh: one request with `{refresh_token}`.
@_spi(Generated) public struct RefreshFlowSpec: Sendable {
    /// The request (its response is a session; a missing refresh token keeps the old one).
    public var request: String
    /// Provider codes that mean "this refresh token was already used": the store is re-read and a
    /// newer session adopted before the session is dropped.
    public var reuseCodes: [String]

    /// Creates the spec.
    public init(request: String, reuseCodes: [String] = []) {
        self.request = request
        self.reuseCodes = reuseCodes
    }
}

/// Sign-out: a request, or local only.
@_spi(Generated) public struct SignOutFlowSpec: Sendable {
    /// The request that ends the session at the provider, or `nil` for a local sign-out.
    public var request: String?
    /// The scopes the request accepts in `{scope}` (e.g. `local`, `global`, `others`); empty when none.
    public var scopes: [String]
    /// The scope used when the app names none.
    public var defaultScope: String?
    /// Scopes that end other sessions but keep this one (Supabase's `others`): no local sign-out.
    public var keepsSessionScopes: [String]

    /// Creates the spec.
    public init(
        request: String? = nil, scopes: [String] = [], defaultScope: String? = nil, keepsSessionScopes: [String] = []
    ) {
        self.request = request
        self.scopes = scopes
        self.defaultScope = defaultScope
        self.keepsSessionScopes = keepsSessionScopes
    }
}

/// Fetching the signed-in user.
@_spi(Generated) public struct UserInfoFlowSpec: Sendable {
    /// The request (its response is a user).
    public var request: String

    /// Creates the spec.
    public init(request: String) {
        self.request = request
    }
}

/// Device authorization grant (RFC 8628).
@_spi(Generated) public struct DeviceCodeFlowSpec: Sendable {
    /// The request that starts the flow (its response is a device authorization document).
    public var authorizationRequest: String
    /// The request polled with `{device_code}` (its response is a session).
    public var tokenRequest: String

    /// Creates the spec.
    public init(authorizationRequest: String, tokenRequest: String) {
        self.authorizationRequest = authorizationRequest
        self.tokenRequest = tokenRequest
    }
}

/// A provider-specific operation: one request with typed parameters (sign-up, password reset, ...).
@_spi(Generated) public struct ActionSpec: Sendable {
    /// The type of an action parameter.
    public typealias ParameterType = LatchkeyVocabulary.ParameterType

    /// One parameter of an action.
    public struct Parameter: Sendable {
        /// The variable name (used in templates) and the argument label.
        public var name: String
        /// The type.
        public var type: ParameterType
        /// Whether it may be left out.
        public var isOptional: Bool
        /// A minimum length checked before any request (e.g. a new password).
        public var minimumLength: Int?
        /// For a string, the values allowed; empty when any.
        public var allowedValues: [String]

        /// Creates a parameter.
        public init(
            name: String, type: ParameterType = .string, isOptional: Bool = false, minimumLength: Int? = nil,
            allowedValues: [String] = []
        ) {
            self.name = name
            self.type = type
            self.isOptional = isOptional
            self.minimumLength = minimumLength
            self.allowedValues = allowedValues
        }
    }

    /// The action's name (the generated method's base name).
    public var name: String
    /// The request it sends.
    public var request: String
    /// Its parameters in declaration order.
    public var parameters: [Parameter]
    /// The PKCE flow an emailed link completes, when the action sends one (`nil`: none).
    public var linkPKCE: LinkPKCESpec?
    /// The member of a document answer the action returns instead of the whole document (a JSON pointer,
    /// the descriptor's `returns`); `nil`: the whole answer.
    public var resultPointer: String?
    /// An event published after the action succeeds (`user_updated`, `mfa_challenge_verified`), if any.
    public var event: String?
    /// The actions performed after this one, in order, each with values read from the answer before it (the
    /// descriptor's `then`); empty: none.
    public var followUps: [ActionFollowUpSpec]

    /// Creates an action.
    public init(
        name: String, request: String, parameters: [Parameter], linkPKCE: LinkPKCESpec? = nil,
        resultPointer: String? = nil, event: String? = nil, followUps: [ActionFollowUpSpec] = []
    ) {
        self.event = event
        self.followUps = followUps
        self.name = name
        self.request = request
        self.parameters = parameters
        self.linkPKCE = linkPKCE
        self.resultPointer = resultPointer
    }
}
