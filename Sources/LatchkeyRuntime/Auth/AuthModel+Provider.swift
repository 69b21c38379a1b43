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

    /// Creates a model that signs in through a browser (authorization code with PKCE).
    /// - Parameters:
    ///   - provider: A generated client that signs in with a browser (or an ``Auth``).
    ///   - authenticator: Shows the authorization page (`AppleWebAuthenticator` on Apple platforms).
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
