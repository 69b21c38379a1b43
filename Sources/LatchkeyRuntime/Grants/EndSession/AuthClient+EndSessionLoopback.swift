import Foundation
import LatchkeyPlatform
import LatchkeyTokens

extension AuthClient {
    /// Logs out at the provider through the system browser and a loopback redirect server (RP-initiated
    /// logout for command-line tools and desktop apps), ending the local session first.
    ///
    /// Starts a ``LoopbackRedirectServer`` for the post-logout redirect: on the configured
    /// `redirectURIs["postLogout"]` when it is a loopback `http` URI, else where a loopback sign-in would listen
    /// (the configured loopback redirect URI, or `http://127.0.0.1:PORT/callback`). Builds the end-session URL
    /// with that URI as `{post_logout_redirect_uri}`, the ID token and a fresh `{state}`, forgets the local
    /// session (store included), then opens the URL and waits for the provider to send the browser back with
    /// the state. A request with a missing or wrong state is answered with the failure page and the wait goes
    /// on; the callback gets ``LoopbackPages/signedOut`` from ``AuthClientOptions/loopbackPages``.
    /// - Parameters:
    ///   - open: Opens the end-session URL (``SystemBrowser/opener``, or a test's HTTP "user").
    ///   - timeout: How long to wait for the provider to send the browser back.
    /// - Throws: `invalid_configuration` when the provider has no end-session flow, its loopback redirects are
    ///   not allowed, the endpoint is unknown or a loopback page is over its limits; `web_auth_start_failed`
    ///   when a fixed port is in use; `timeout` when the browser did not come back (a provider that does not
    ///   know the redirect URI shows its own page instead); `login_cancelled` when cancelled; `store_failed`
    ///   when the stored session could not be removed. The local session is gone in every case.
    public func endSessionWithLoopback(
        open: @escaping @Sendable (URL) async throws(AuthError) -> Void, timeout: LatchkeyDuration = .seconds(300)
    ) async throws(AuthError) {
        try? await ensureLoaded()
        let state = RandomToken.make(using: options.random)
        let server: LoopbackRedirectServer
        let built: Result<EndSessionRequest, AuthError>
        do throws(AuthError) {
            guard let flow = provider.flows.endSession else {
                throw failure(.invalidConfiguration, "This provider has no RP-initiated logout.")
            }
            do {
                server = try LoopbackRedirectServer(
                    endpoint: endSessionEndpoint(), expectedState: state, timeout: timeout,
                    successPage: options.loopbackPages.signedOut, failurePage: options.loopbackPages.failure)
            } catch {
                throw failure(error.code, error.message)
            }
            do throws(AuthError) {
                try ConfigurationValidator.checkRedirect(server.redirectURI, provider: provider)
                built = .success(try await renderEndSession(flow, redirect: server.redirectURI, state: state))
            } catch {
                built = .failure(error)
            }
        } catch {
            _ = await clearSession()
            throw error
        }
        defer { server.cancel() }
        let storeError = await clearSession()
        let request = try built.get()
        if let storeError { throw storeError }
        try await open(request.url)
        let callback = try await server.waitForCallback()
        try completeEndSession(request, callbackURL: callback)
    }

    /// Where the post-logout loopback server listens: the configured `redirectURIs["postLogout"]` when it is a
    /// loopback `http` URI, else where a loopback sign-in would.
    private func endSessionEndpoint() throws(AuthError) -> LoopbackEndpoint {
        if let postLogout = configuration.redirectURIs[EndSessionFlowSpec.redirectPurpose],
            postLogout.scheme?.lowercased() == "http", RedirectURI.isLoopback(postLogout.host)
        {
            return try LoopbackEndpoint(redirectURI: postLogout)
        }
        return try LoopbackEndpoint.signIn(configuredRedirect: configuration.redirectURI)
    }
}
