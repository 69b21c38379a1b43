import Foundation

extension AuthClient {
    /// Signs in through a browser: prepares the request, lets the authenticator show it, then handles the
    /// callback.
    /// - Parameters:
    ///   - authenticator: Shows the authorization URL (`AppleWebAuthenticator` on Apple platforms).
    ///   - redirectURI: The redirect URI (default: the configured one).
    ///   - scopes: The scopes (default: the provider's default scopes).
    ///   - prefersEphemeralSession: Whether the browser should not share cookies.
    ///   - additionalParameters: More authorization query parameters.
    /// - Returns: The new session.
    /// - Throws: `login_cancelled` when the user closed the browser; any error of
    ///   ``prepareAuthorization(redirectURI:scopes:prompt:loginHint:maxAge:additionalParameters:)`` or
    ///   ``handleCallback(_:)``.
    @discardableResult
    public func signInWithBrowser(
        using authenticator: any WebAuthenticator, redirectURI: URL? = nil, scopes: [String]? = nil,
        prefersEphemeralSession: Bool = false, additionalParameters: [String: String] = [:]
    ) async throws(AuthError) -> Session {
        let request = try await prepareAuthorization(
            redirectURI: redirectURI, scopes: scopes, additionalParameters: additionalParameters)
        return try await complete(request) { () async throws(AuthError) -> URL in
            try await authenticator.authenticate(
                WebAuthenticationRequest(
                    url: request.url, redirectURI: request.redirectURI, callbackScheme: request.callbackScheme,
                    prefersEphemeralSession: prefersEphemeralSession))
        }
    }

    /// Signs in through the system browser and a loopback redirect server (RFC 8252), for desktop apps
    /// and command-line tools.
    /// - Parameters:
    ///   - open: Opens the authorization URL (``SystemBrowser/opener``, or a test's HTTP "user").
    ///   - timeout: How long to wait for the callback.
    ///   - scopes: The scopes (default: the provider's default scopes).
    /// - Returns: The new session.
    /// - Throws: `timeout` when no callback came; `login_cancelled` when cancelled; any error of the flow.
    @discardableResult
    public func signInWithLoopback(
        open: @escaping @Sendable (URL) async throws(AuthError) -> Void, timeout: Duration = .seconds(300),
        scopes: [String]? = nil
    ) async throws(AuthError) -> Session {
        let state = RandomToken.make(using: options.random)
        // A provider that keeps its own flow state (Supabase) does not echo `state`: the callback is then
        // matched to the pending sign-in by ``handleCallback(_:)`` instead.
        let echoesState = provider.flows.authorizationCode?.returnsState ?? true
        let server = try LoopbackRedirectServer(
            expectedState: echoesState ? state : nil, timeout: timeout,
            acceptsFormPost: provider.callback.location == .formPost)
        defer { server.cancel() }
        let request = try await prepare(
            redirectURI: server.redirectURI, scopes: scopes, prompt: nil, loginHint: nil, maxAge: nil,
            additionalParameters: [:], state: state)
        return try await complete(request) { () async throws(AuthError) -> URL in
            try await open(request.url)
            return try await server.waitForCallback()
        }
    }

    /// Runs the browser part, then the callback; publishes `authenticating` meanwhile and forgets the
    /// pending sign-in when the browser part fails.
    private func complete(
        _ request: AuthorizationRequest, browser: () async throws(AuthError) -> URL
    ) async throws(AuthError) -> Session {
        let previous = state
        broadcaster.publish(.authenticating)
        let callback: URL
        do {
            callback = try await browser()
        } catch {
            _ = try? await updatePending { flows in flows.removeAll { $0.state == request.state } }
            publishAfterFailure(previous: previous)
            throw error
        }
        do {
            return try await handleCallback(callback)
        } catch {
            if state == .authenticating { publishAfterFailure(previous: previous) }
            throw error
        }
    }
}
