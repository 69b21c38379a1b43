import Foundation
import LatchkeyTokens

/// The provider-neutral façade an app uses: state, restoration, sessions, and the sign-in and sign-out
/// methods the provider's capabilities allow (they exist only when the descriptor declares the flow).
///
/// Every operation comes from the capability protocols ``Auth`` adopts as its provider does
/// (``AuthProviderClient``, ``BrowserSignInProviding``, ...); provider-specific actions stay on
/// ``provider``.
public struct Auth<Provider: AuthProviderClient>: AuthProviderClient {
    /// The generated provider client, for provider-specific actions.
    public let provider: Provider

    /// Creates the façade.
    /// - Parameter provider: The generated client.
    public init(_ provider: Provider) {
        self.provider = provider
    }

    /// The engine.
    @_spi(Generated) public var client: AuthClient { provider.client }

    /// The provider's spec.
    @_spi(Generated) public static var provider: ProviderSpec { Provider.provider }
}

extension Auth: PasswordSignInProviding where Provider: PasswordSignInProviding {
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

extension Auth: BrowserSignInProviding where Provider: BrowserSignInProviding {}
extension Auth: RefreshProviding where Provider: RefreshProviding {}
extension Auth: DeviceAuthorizationProviding where Provider: DeviceAuthorizationProviding {}
extension Auth: ClientCredentialsProviding where Provider: ClientCredentialsProviding {}
extension Auth: EndSessionProviding where Provider: EndSessionProviding {}
extension Auth: ServerHandoffProviding where Provider: ServerHandoffProviding {}
extension Auth: UserInfoProviding where Provider: UserInfoProviding {}

extension Auth: SignOutProviding where Provider: SignOutProviding {
    /// Signs out locally, then at the provider when it has a sign-out request.
    /// - Parameter scope: The sign-out scope, when the provider has scopes.
    /// - Throws: `validation_failed` for an unknown scope; `store_failed`.
    public func signOut(scope: String? = nil) async throws(AuthError) { try await client.signOut(scope: scope) }
}
