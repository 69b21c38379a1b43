import Foundation
import LatchkeyTokens

/// A provider's client: the typed façade an app signs in with. Every generated client (``Auth`` too)
/// adopts it, and one capability protocol for each flow its descriptor declares
/// (``PasswordSignInProviding``, ``BrowserSignInProviding``, ``DeviceAuthorizationProviding``, ...).
///
/// The operations every provider has (state, restoration, sessions, tokens) are written once, here; a
/// generated client adds only what is specific to its provider: its initializer, its sign-out scopes and
/// its actions.
public protocol AuthProviderClient: Sendable {
    /// The engine behind the client, for generated code and tests.
    ///
    /// Only generated clients and ``Auth`` adopt this protocol; they store their engine. An app never
    /// needs it: every operation is on the client.
    @_spi(Generated) var client: AuthClient { get }

    /// The provider as its descriptor declares it, for generated code, tests and the simulator.
    @_spi(Generated) static var provider: ProviderSpec { get }
}

extension AuthProviderClient {
    /// The engine behind the client. Generated clients store theirs; this default exists only because an
    /// `@_spi` requirement needs one, and is never used by them.
    @_spi(Generated) public var client: AuthClient {
        preconditionFailure("Only generated clients adopt AuthProviderClient: \(Self.self) has no engine")
    }

    /// The provider as its descriptor declares it. Generated clients declare theirs; this default exists only
    /// because an `@_spi` requirement needs one, and is never used by them.
    @_spi(Generated) public static var provider: ProviderSpec {
        preconditionFailure("Only generated clients adopt AuthProviderClient: \(Self.self) has no provider")
    }

    /// The provider's display name, e.g. `"Supabase Auth"`.
    public var providerName: String { client.provider.displayName }

    /// The current authentication state.
    public var state: AuthState { client.state }

    /// The session in memory, without reading the store or refreshing: for rendering, never for a request
    /// (use ``validAccessToken()`` for that).
    public var cachedSession: Session? { get async { await client.cachedSession } }

    /// The authentication state: the current value first, then every change.
    /// - Returns: A stream that ends when the subscriber stops iterating or the client goes away.
    public func stateUpdates() -> AsyncStream<AuthState> { client.stateUpdates() }

    /// The session's tokens: the current session first (once restored), then every change — sign-in,
    /// every refresh (automatic, forced, or adopted from another process sharing the store), and `nil` at
    /// sign-out, ``resetTokens()`` or a session the provider ended.
    ///
    /// ``stateUpdates()`` yields only when the ``AuthState`` changes, and a refresh keeps the state
    /// `signedIn(user)`; this stream yields the new ``Session`` for each refresh. Nothing is yielded before
    /// the stored session was read (call ``restore()``): `nil` always means "nobody is signed in". A slow
    /// subscriber gets only the latest value, never an older one after it.
    ///
    /// - Important: The values are secrets. ``Session`` redacts its tokens in `description` and dumps, but
    ///   an app must not log, persist or send ``Session/accessToken``, ``Session/refreshToken`` or
    ///   ``Session/idToken`` anywhere but to their own provider and APIs.
    /// - Returns: A stream that ends when the subscriber stops iterating or the client goes away.
    public func observeTokens() -> AsyncStream<Session?> { client.observeTokens() }

    /// The events from now on (``AuthEvent/passwordRecovery`` after a recovery link), until the caller stops.
    /// - Returns: A stream that never replays earlier events.
    public func events() -> AsyncStream<AuthEvent> { client.events() }

    /// Every change with the session after it (supabase-swift's `authStateChanges`): `initial_session` first,
    /// then `signed_in`, `signed_out`, `token_refreshed` and the ``events()``; see
    /// `AuthClient.authStateChanges()`.
    /// - Returns: A stream that ends when the subscriber stops iterating or the client goes away.
    public func authStateChanges() -> AsyncStream<AuthStateChange> { client.authStateChanges() }

    /// Restores the stored session without any network request.
    /// - Returns: The settled state: `signedIn`, `signedOut`, or `failed` when the store is unavailable
    ///   (which is not the same as signed out).
    @discardableResult
    public func restore() async -> AuthState { await client.restore() }

    /// Forgets the session on this device without any request (no refresh, no revocation); a refresh in
    /// flight is discarded when it answers.
    /// - Throws: `store_failed` when the stored session could not be removed.
    public func resetTokens() async throws(AuthError) { try await client.resetTokens() }

    /// The current session, refreshed first when it expires within the leeway (or always, with
    /// `forceRefresh`).
    ///
    /// Concurrent callers share one refresh request. Call it with `forceRefresh: true` right before a
    /// sensitive operation.
    /// - Parameter forceRefresh: Whether to refresh even when the access token is still fresh.
    /// - Returns: The session.
    /// - Throws: `session_missing` when signed out; `session_expired` (kind `rejected`) when the provider
    ///   ended the session; transport errors keep the session.
    public func currentSession(forceRefresh: Bool = false) async throws(AuthError) -> Session {
        try await client.currentSession(forceRefresh: forceRefresh)
    }

    /// An access token valid for at least the refresh leeway, refreshed first when needed.
    /// - Returns: The access token. Never log it.
    /// - Throws: The errors of ``currentSession(forceRefresh:)``.
    public func validAccessToken() async throws(AuthError) -> String { try await client.validAccessToken() }

    /// Starts proactive refresh (see ``AutomaticRefresh``); calling it again replaces the policy.
    ///
    /// Call ``stopAutomaticRefresh()`` when the app goes to the background.
    /// - Parameter policy: How often to check and how early to refresh.
    public func startAutomaticRefresh(_ policy: AutomaticRefresh = .standard) async {
        await client.startAutomaticRefresh(policy)
    }

    /// Stops proactive refresh; a refresh already sent completes.
    public func stopAutomaticRefresh() async { await client.stopAutomaticRefresh() }

    /// Whether proactive refresh is running.
    public var isRefreshingAutomatically: Bool { get async { await client.isRefreshingAutomatically } }
}
