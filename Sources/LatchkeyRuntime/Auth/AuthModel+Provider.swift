import LatchkeyTokens

extension AuthModel {
    /// Creates a model that mirrors a client's state (``signIn()`` does nothing: the model has no way to).
    /// - Parameter provider: A generated client (or an ``Auth``).
    public convenience init(_ provider: some AuthProviderClient) {
        self.init(client: provider.client)
    }

    /// Creates a model that signs in with any flow.
    /// - Parameters:
    ///   - provider: A generated client (or an ``Auth``).
    ///   - signIn: Signs the client in, e.g. `{ try await $0.signInWithLoopback(open: SystemBrowser().opener) }`.
    public convenience init<Provider: AuthProviderClient>(
        _ provider: Provider, signIn: @escaping @Sendable (Provider) async throws(AuthError) -> Void
    ) {
        self.init(client: provider.client) { _ throws(AuthError) in try await signIn(provider) }
    }

    /// Creates a model that signs in through the browser sheet of the view that asks (authorization code with
    /// PKCE): SwiftUI's web authentication session when `SignInButton` (or a generated
    /// `SignInWith<Provider>Button`) starts the sign-in, with no window to hand over.
    ///
    /// Where SwiftUI has no web authentication session (before iOS 16.4 and macOS 13.3), and for a plain
    /// ``signIn()``, the model presents `AppleWebAuthenticator` from the key window.
    /// - Parameters:
    ///   - provider: A generated client that signs in with a browser (or an ``Auth``).
    ///   - scopes: The scopes (default: the provider's).
    ///   - prefersEphemeralSession: Whether the browser should not share cookies.
    public convenience init(
        browserSignIn provider: some BrowserSignInProviding, scopes: [String]? = nil,
        prefersEphemeralSession: Bool = false
    ) {
        self.init(
            client: provider.client, authenticator: nil, scopes: scopes,
            prefersEphemeralSession: prefersEphemeralSession)
    }

    /// Creates a model that signs in through a browser of the app's choosing (authorization code with PKCE).
    /// - Parameters:
    ///   - provider: A generated client that signs in with a browser (or an ``Auth``).
    ///   - authenticator: Shows the authorization page (`AppleWebAuthenticator` on Apple platforms); it is used
    ///     for every sign-in, also when the view offers its own.
    ///   - scopes: The scopes (default: the provider's).
    ///   - prefersEphemeralSession: Whether the browser should not share cookies.
    public convenience init(
        _ provider: some BrowserSignInProviding, authenticator: any WebAuthenticator, scopes: [String]? = nil,
        prefersEphemeralSession: Bool = false
    ) {
        self.init(
            client: provider.client, authenticator: authenticator, scopes: scopes,
            prefersEphemeralSession: prefersEphemeralSession)
    }
}
