import Foundation

/// The provider-neutral facade an app uses: state, restoration, sessions, and the sign-in and sign-out
/// methods the provider's capabilities allow (they exist only when the descriptor declares the flow).
public struct Auth<Provider: AuthProviderClient>: Sendable {
    /// The generated provider client, for provider-specific actions.
    public let provider: Provider

    /// Creates the facade.
    /// - Parameter provider: The generated client.
    public init(_ provider: Provider) {
        self.provider = provider
    }

    /// The engine.
    public var client: AuthClient { provider.client }

    /// The current state.
    public var state: AuthState { client.state }

    /// A stream of states: the current one first, then every change.
    public func stateUpdates() -> AsyncStream<AuthState> { client.stateUpdates() }

    /// The session's tokens: the current session first, then every change (every refresh included), `nil`
    /// when signed out. The values are secrets. See ``AuthClient/observeTokens()``.
    /// - Returns: The stream.
    public func observeTokens() -> AsyncStream<Session?> { client.observeTokens() }

    /// Forgets the session on this device without any request, fencing a refresh in flight.
    /// See ``AuthClient/resetTokens()``.
    /// - Throws: `store_failed` when the stored record could not be removed.
    public func resetTokens() async throws(AuthError) { try await client.resetTokens() }

    /// Reads the stored session without any network request.
    /// - Returns: The settled state.
    @discardableResult
    public func restore() async -> AuthState { await client.restore() }

    /// The current session, refreshed first when needed.
    /// - Parameter forceRefresh: Refresh even when the access token is fresh.
    /// - Returns: The session.
    /// - Throws: `session_missing`, a rejection, or a transport error.
    public func currentSession(forceRefresh: Bool = false) async throws(AuthError) -> Session {
        try await client.currentSession(forceRefresh: forceRefresh)
    }

    /// A valid access token, refreshed first when needed.
    /// - Returns: The access token.
    /// - Throws: As ``currentSession(forceRefresh:)``.
    public func validAccessToken() async throws(AuthError) -> String { try await client.validAccessToken() }
}

extension Auth where Provider: PasswordSignInProviding {
    /// Signs in with an email address and a password.
    /// - Parameters:
    ///   - email: The email address.
    ///   - password: The password.
    /// - Returns: The new session.
    /// - Throws: The mapped provider error.
    @discardableResult
    public func signIn(email: String, password: String) async throws(AuthError) -> Session {
        try await provider.signIn(identifier: email, password: password)
    }

    /// Signs in with a username and a password.
    /// - Parameters:
    ///   - username: The username.
    ///   - password: The password.
    /// - Returns: The new session.
    /// - Throws: The mapped provider error.
    @discardableResult
    public func signIn(username: String, password: String) async throws(AuthError) -> Session {
        try await provider.signIn(identifier: username, password: password)
    }
}

extension Auth where Provider: BrowserSignInProviding {
    /// Signs in through a browser.
    /// - Parameters:
    ///   - authenticator: Shows the authorization URL.
    ///   - scopes: The scopes (default: the provider's).
    ///   - prefersEphemeralSession: Whether the browser should not share cookies.
    /// - Returns: The new session.
    /// - Throws: `login_cancelled`, or any error of the flow.
    @discardableResult
    public func signInWithBrowser(
        using authenticator: any WebAuthenticator, scopes: [String]? = nil, prefersEphemeralSession: Bool = false
    ) async throws(AuthError) -> Session {
        try await client.signInWithBrowser(
            using: authenticator, scopes: scopes, prefersEphemeralSession: prefersEphemeralSession)
    }

    /// Signs in through the system browser and a loopback redirect (desktop and command-line apps).
    /// - Parameters:
    ///   - open: Opens the authorization URL.
    ///   - timeout: How long to wait for the callback.
    /// - Returns: The new session.
    /// - Throws: `timeout`, `login_cancelled`, or any error of the flow.
    @discardableResult
    public func signInWithLoopback(
        open: @escaping @Sendable (URL) async throws(AuthError) -> Void, timeout: Duration = .seconds(300)
    ) async throws(AuthError) -> Session {
        try await client.signInWithLoopback(open: open, timeout: timeout)
    }

    /// Completes a browser sign-in from the callback URL the app was opened with.
    /// - Parameter url: The callback URL.
    /// - Returns: The new session.
    /// - Throws: As ``AuthClient/handleCallback(_:)``.
    @discardableResult
    public func handleCallback(_ url: URL) async throws(AuthError) -> Session { try await client.handleCallback(url) }
}

extension Auth where Provider: SignOutProviding {
    /// Signs out, at the provider when it has a sign-out request, and always locally.
    /// - Parameter scope: The sign-out scope, when the provider has scopes.
    /// - Throws: `validation_failed` for an unknown scope; `store_failed`.
    public func signOut(scope: String? = nil) async throws(AuthError) { try await client.signOut(scope: scope) }
}
