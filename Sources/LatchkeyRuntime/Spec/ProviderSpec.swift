import LatchkeyVocabulary

/// Everything the runtime knows about one provider: the descriptor, normalized.
///
/// Generated clients hold their provider's spec as a constant (`AcmeClient.provider`). The runtime
/// and the simulator in `LatchkeyTesting` read it; apps rarely need to.
@_spi(Generated) public struct ProviderSpec: Sendable {
    /// The descriptor name (`supabase`).
    public var name: String
    /// The name shown to people (`Supabase Auth`).
    public var displayName: String
    /// Configuration inputs.
    public var inputs: [InputSpec]
    /// Derived variables, such as `baseURL` = `{projectURL}/auth/v1`, in dependency order.
    public var variables: [ParameterSpec]
    /// How endpoints are discovered, if at all.
    public var discovery: DiscoverySpec?
    /// Headers sent with every request (e.g. `apikey`).
    public var commonHeaders: [ParameterSpec]
    /// Constant parameters added to every token request (code exchange and refresh).
    public var extraTokenParameters: [ParameterSpec]
    /// The requests, by name.
    public var requests: [String: RequestSpec]
    /// The standard flows.
    public var flows: FlowSet
    /// Provider-specific actions, in declaration order.
    public var actions: [ActionSpec]
    /// Error mappings.
    public var errors: ErrorMappingSpec
    /// Callback rules.
    public var callback: CallbackSpec
    /// Where the session is in token responses.
    public var session: SessionMapping
    /// Where the user is in user documents.
    public var user: UserMapping
    /// Token formats.
    public var tokens: TokenSpec
    /// Client rules.
    public var clientPolicy: ClientPolicy
    /// Set when the client cannot be created without a client secret (the descriptor's `clientSecret`).
    public var clientSecret: ClientSecretRequirement?
    /// Values read from responses and kept with the session, usable as `{NAME}` (the descriptor's `captures`).
    public var captures: [CaptureSpec]
    /// DPoP and pushed authorization requests.
    public var senderConstraint: SenderConstraintSpec
    /// How access-token claims are verified (the descriptor's `accessTokenClaims`), if the client offers it.
    public var accessTokenClaims: AccessTokenClaimsSpec?
    /// Where the client may run: in apps (the default), or only in server-side code (the descriptor's
    /// `audience`).
    public var audience: ClientAudience

    /// Creates a spec.
    public init(
        name: String, displayName: String, inputs: [InputSpec] = [], variables: [ParameterSpec] = [],
        discovery: DiscoverySpec? = nil, commonHeaders: [ParameterSpec] = [],
        extraTokenParameters: [ParameterSpec] = [], requests: [String: RequestSpec] = [:], flows: FlowSet = FlowSet(),
        actions: [ActionSpec] = [], errors: ErrorMappingSpec = ErrorMappingSpec(),
        callback: CallbackSpec = CallbackSpec(),
        session: SessionMapping = SessionMapping(), user: UserMapping = UserMapping(), tokens: TokenSpec = TokenSpec(),
        clientPolicy: ClientPolicy = ClientPolicy(), clientSecret: ClientSecretRequirement? = nil,
        captures: [CaptureSpec] = [], senderConstraint: SenderConstraintSpec = SenderConstraintSpec(),
        accessTokenClaims: AccessTokenClaimsSpec? = nil, audience: ClientAudience = .app
    ) {
        self.accessTokenClaims = accessTokenClaims
        self.name = name
        self.displayName = displayName
        self.inputs = inputs
        self.variables = variables
        self.discovery = discovery
        self.commonHeaders = commonHeaders
        self.extraTokenParameters = extraTokenParameters
        self.requests = requests
        self.flows = flows
        self.actions = actions
        self.errors = errors
        self.callback = callback
        self.session = session
        self.user = user
        self.tokens = tokens
        self.clientPolicy = clientPolicy
        self.clientSecret = clientSecret
        self.captures = captures
        self.senderConstraint = senderConstraint
        self.audience = audience
    }
}
