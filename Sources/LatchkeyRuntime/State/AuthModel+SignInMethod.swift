import LatchkeyTokens

extension AuthModel {
    /// How a model signs in: the platform-neutral choice behind ``AuthModel/signIn()`` and
    /// ``AuthModel/signIn(using:)``.
    enum SignInMethod: Sendable {
        /// The model only mirrors the client.
        case none
        /// Any flow of the app's.
        case flow(@Sendable (AuthClient) async throws(AuthError) -> Void)
        /// A browser sign-in (authorization code with PKCE), through `authenticator`, else the view's, else the
        /// platform's own.
        case browser(authenticator: (any WebAuthenticator)?, scopes: [String]?, prefersEphemeralSession: Bool)

        /// Whether the model has a way to sign in.
        var canSignIn: Bool {
            if case .none = self { return false }
            return true
        }

        /// The sign-in to run, or `nil` when the model has none.
        /// - Parameter viewAuthenticator: The browser of the view that asks, if any.
        @MainActor
        func action(
            viewAuthenticator: (any WebAuthenticator)?
        ) -> (@Sendable (AuthClient) async throws(AuthError) -> Void)? {
            switch self {
            case .none:
                return nil
            case .flow(let flow):
                return flow
            case .browser(let own, let scopes, let prefersEphemeralSession):
                let authenticator = own ?? viewAuthenticator ?? AuthModel.platformAuthenticator()
                return { client throws(AuthError) in
                    guard let authenticator else {
                        throw AuthError(
                            .invalidConfiguration,
                            "This platform has no browser sheet: give the model an authenticator "
                                + "(AuthModel(_:authenticator:)) or sign in with signIn(using:).")
                    }
                    try await client.signInWithBrowser(
                        using: authenticator, scopes: scopes, prefersEphemeralSession: prefersEphemeralSession)
                }
            }
        }
    }

    /// The platform's own browser sheet for a model given none: `AppleWebAuthenticator`, presented from the key
    /// window on iOS, macOS and visionOS and by itself on watchOS; `nil` elsewhere (tvOS, Linux).
    static func platformAuthenticator() -> (any WebAuthenticator)? {
        #if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS) || os(watchOS))
            AppleWebAuthenticator()
        #else
            nil
        #endif
    }
}
