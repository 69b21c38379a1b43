import Foundation

/// A generated provider client: it owns an ``AuthClient`` and adopts a capability protocol for each flow
/// its descriptor declares.
public protocol AuthProviderClient: Sendable {
    /// The engine behind the client.
    var client: AuthClient { get }
}

/// A client whose provider signs in with an identifier and a password.
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
    /// Signs in through the engine's password flow.
    public func signIn(identifier: String, password: String) async throws(AuthError) -> Session {
        try await client.signIn(username: identifier, password: password)
    }
}

/// A client whose provider signs in through a browser (authorization code with PKCE).
public protocol BrowserSignInProviding: AuthProviderClient {}

/// A client whose provider refreshes sessions.
public protocol RefreshProviding: AuthProviderClient {}

/// A client whose provider ends sessions with a request (or locally).
public protocol SignOutProviding: AuthProviderClient {}
