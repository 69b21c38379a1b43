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
