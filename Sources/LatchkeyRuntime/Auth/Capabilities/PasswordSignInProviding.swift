import LatchkeyTokens

/// A client whose provider signs in with an identifier and a password.
///
/// A generated client also names the identifier after its provider (`signIn(email:password:)`).
public protocol PasswordSignInProviding: AuthProviderClient {
    /// Signs in with an identifier (email, username, ...) and a password.
    /// - Parameters:
    ///   - identifier: The email address or username.
    ///   - password: The password.
    /// - Returns: The new session.
    /// - Throws: The mapped provider error (`invalid_credentials`, ...).
    func signIn(identifier: String, password: String) async throws(AuthError) -> Session
}

extension PasswordSignInProviding {
    /// Signs in with an identifier and a password, and stores the session. The password is sent once and
    /// never stored.
    /// - Parameters:
    ///   - identifier: The email address or username.
    ///   - password: The password.
    /// - Returns: The new session.
    /// - Throws: `AuthError`, e.g. `invalid_credentials` (kind `rejected`) or `network_error` (kind
    ///   `transport`).
    @discardableResult
    public func signIn(identifier: String, password: String) async throws(AuthError) -> Session {
        try await client.signIn(username: identifier, password: password)
    }
}

/// A client whose provider refreshes sessions.
public protocol RefreshProviding: AuthProviderClient {}

/// A client whose provider ends sessions with a request (or locally).
public protocol SignOutProviding: AuthProviderClient {}

extension RefreshProviding {
    /// Makes a session from a refresh token the app holds: the refresh request is sent with it and the answer
    /// stored as the session (supabase-swift's `refreshSession(refreshToken:)`).
    /// - Parameter refreshToken: The refresh token.
    /// - Returns: The new session.
    /// - Throws: The provider's mapped error; `login_cancelled` when a sign-out won meanwhile.
    @discardableResult
    public func refreshSession(refreshToken: String) async throws(AuthError) -> Session {
        try await client.refreshSession(refreshToken: refreshToken)
    }
}

extension RefreshProviding where Self: UserInfoProviding {
    /// Makes a session from an access token and a refresh token the app holds (supabase-swift's
    /// `setSession(accessToken:refreshToken:)`): an expired access token is refreshed, a valid one is checked by
    /// fetching its user. See `AuthClient.setSession(accessToken:refreshToken:)`.
    /// - Parameters:
    ///   - accessToken: The access token.
    ///   - refreshToken: The refresh token.
    /// - Returns: The new session.
    /// - Throws: The provider's mapped errors.
    @discardableResult
    public func setSession(accessToken: String, refreshToken: String) async throws(AuthError) -> Session {
        try await client.setSession(accessToken: accessToken, refreshToken: refreshToken)
    }
}
