import Foundation
import LatchkeyPlatform
import LatchkeyTokens
import LatchkeyVocabulary

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
                    url: try await openableURL(request), redirectURI: request.redirectURI,
                    callbackScheme: request.callbackScheme,
                    prefersEphemeralSession: prefersEphemeralSession))
        }
    }

    /// Signs in through the system browser and a loopback redirect server (RFC 8252), for desktop apps
    /// and command-line tools.
    ///
    /// When the configured redirect URI is an `http` loopback URI with a port (`http://127.0.0.1:8765/callback`,
    /// `http://[::1]:8765/cb`, `http://localhost:8765/cb`), the server listens on exactly that port, on the
    /// matching loopback interface (`localhost` is `127.0.0.1`), at that path, and the URI is sent unchanged as
    /// `redirect_uri`: providers that match redirect URIs exactly accept it. A loopback URI without a port keeps
    /// its host and path on a port the system picks (RFC 8252 section 7.3). Otherwise the server listens on
    /// `127.0.0.1` on a port the system picks and sends `http://127.0.0.1:PORT/callback`. Without a configured
    /// redirect URI, the first loopback redirect URI the discovered client configuration lists (the descriptor's
    /// `clientPolicy.allowedRedirectURIsField`) counts as the configured one.
    /// - Parameters:
    ///   - open: Opens the authorization URL (``SystemBrowser/opener``, or a test's HTTP "user").
    ///   - timeout: How long to wait for the callback.
    ///   - scopes: The scopes (default: the provider's default scopes).
    /// - Returns: The new session.
    /// - Throws: `invalid_configuration` for loopback pages over their limits (before anything listens);
    ///   `web_auth_start_failed` when the configured fixed port is in use (before the browser opens);
    ///   `timeout` when no callback came; `login_cancelled` when cancelled; any error of the flow.
    @discardableResult
    public func signInWithLoopback(
        open: @escaping @Sendable (URL) async throws(AuthError) -> Void, timeout: LatchkeyDuration = .seconds(300),
        scopes: [String]? = nil
    ) async throws(AuthError) -> Session {
        if let flow = provider.flows.authorizationCode {
            // Before the loopback server listens: a flow that cannot finish never opens a port or a browser.
            try ClientSecretCheck.checkFlow(
                [flow.exchangeRequest], flow: "Browser sign-in", provider: provider, configuration: configuration)
        }
        let state = RandomToken.make(using: options.random)
        // A provider that keeps its own flow state (Supabase) does not echo `state`: the callback is then
        // matched to the pending sign-in by ``handleCallback(_:)`` instead.
        let echoesState = provider.flows.authorizationCode?.returnsState ?? true
        var configured = configuration.redirectURI
        if configured == nil, provider.clientPolicy.allowedRedirectURIsPointer != nil {
            // No redirect URI configured: the first loopback one the client configuration lists, so that a
            // provider matching redirect URIs exactly accepts it.
            _ = try await discover()
            configured = providerListedRedirectURIs().first {
                $0.scheme?.lowercased() == "http" && RedirectURI.isLoopback($0.host)
            }
        }
        let server: LoopbackRedirectServer
        do {
            server = try LoopbackRedirectServer(
                endpoint: LoopbackEndpoint.signIn(configuredRedirect: configured),
                expectedState: echoesState ? state : nil, timeout: timeout,
                successPage: options.loopbackPages.success, failurePage: options.loopbackPages.failure,
                acceptsFormPost: provider.callback.location == .formPost, offersCandidates: !echoesState)
        } catch {
            throw failure(error.code, error.message)
        }
        defer { server.cancel() }
        let request = try await prepare(
            redirectURI: server.redirectURI, scopes: scopes, prompt: nil, loginHint: nil, maxAge: nil,
            additionalParameters: [:], state: state)
        var opened = false
        return try await complete(request, arrival: .loopback) { () async throws(AuthError) -> URL in
            if !opened {
                opened = true
                try await open(try await openableURL(request))
            }
            return try await server.waitForCallback()
        }
    }

    /// Runs the browser part, then the callback; publishes `authenticating` meanwhile and forgets the
    /// pending sign-in when the browser part fails.
    ///
    /// A callback that proves nothing and leaves the sign-in pending (``CallbackOutcome/unproven(_:)``: a
    /// loopback candidate of a provider that echoes no state) is set aside, and `browser` is asked for the
    /// next one; when none comes, the error says what the last one was refused for.
    private func complete(
        _ request: AuthorizationRequest, arrival: CallbackArrival = .opened,
        browser: () async throws(AuthError) -> URL
    ) async throws(AuthError) -> Session {
        let previous = state
        apply(.signInStarted)
        var refused: AuthError?
        while true {
            let callback: URL
            do {
                callback = try await browser()
            } catch {
                _ = try? await updatePending { flows in flows.removeAll { $0.state == request.state } }
                publishAfterFailure(previous: previous)
                guard let refused, error.code == .timeout else { throw error }
                throw AuthError(
                    error.code, error.message + "; the last callback was refused with \(refused.code.rawValue)",
                    provider: provider.name)
            }
            let outcome: CallbackOutcome
            do {
                outcome = try await handleCallback(callback, arrival: arrival)
            } catch {
                if state == .authenticating { publishAfterFailure(previous: previous) }
                throw error
            }
            switch outcome {
            case .session(let session):
                return session
            case .unproven(let error) where arrival == .loopback:
                log(.info, "A loopback callback proved nothing (\(error.code.rawValue)); still waiting.")
                refused = error
            case .unproven(let error):
                if state == .authenticating { publishAfterFailure(previous: previous) }
                throw error
            }
        }
    }
}
