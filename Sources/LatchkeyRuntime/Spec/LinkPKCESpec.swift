/// How an action that makes the provider email a link starts a PKCE flow that the link completes
/// (Supabase's sign-up, resend, magic link and password recovery).
///
/// When the link returns to a redirect URI the app handles, the action fills the `{code_challenge}` and
/// `{code_challenge_method}` variables its request declares, and keeps the verifier with the pending browser
/// sign-ins (in the store, so that a link opened after a relaunch completes): the link's `?code=` is then
/// exchanged through the authorization-code flow's exchange request.
@_spi(Generated) public struct LinkPKCESpec: Sendable {
    /// The value of `{code_challenge_method}` (`S256`, or GoTrue's `s256`).
    public var method: String
    /// Names of configured redirect URIs tried in order when the app passes no URL argument
    /// (``ImplicitSessionSpec/defaultRedirect`` names the configured redirect URI); empty: the action's name,
    /// then its request's name.
    public var redirects: [String]
    /// How long the verifier is kept, in seconds; `nil`: the authorization-code flow's pending lifetime.
    public var lifetime: Double?
    /// An event published after the link's code is exchanged (e.g. `password_recovery`), if any.
    public var event: String?
    /// Parameters of which at least one must be given for the challenge to be sent (supabase-swift's
    /// `update(user:)` sends one only with a new email address); empty: whenever a redirect applies.
    public var when: [String]

    /// Creates the spec.
    /// - Parameters:
    ///   - method: The value of `{code_challenge_method}`.
    ///   - redirects: Configured redirect URI names tried in order.
    ///   - lifetime: How long the verifier is kept, in seconds.
    ///   - event: The event published after the exchange.
    ///   - when: Parameters of which one must be given for the challenge to be sent.
    public init(
        method: String = "S256", redirects: [String] = [], lifetime: Double? = nil, event: String? = nil,
        when: [String] = []
    ) {
        self.when = when
        self.method = method
        self.redirects = redirects
        self.lifetime = lifetime
        self.event = event
    }
}
