import Foundation
import LatchkeyTokens
import LatchkeyVocabulary

extension AuthClient {
    /// Prepares an RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0) and ends the local
    /// session.
    ///
    /// Builds the end-session URL from the descriptor's `endSession` flow with the current ID token as
    /// `{id_token}`, the post-logout redirect URI as `{post_logout_redirect_uri}` and a fresh random
    /// `{state}`, then forgets the session locally (store included) and publishes `signedOut`, whatever
    /// happens in the browser afterwards. The local session is ended even when the URL cannot be built.
    /// - Parameter postLogoutRedirectURI: Where the provider sends the browser back (default: the
    ///   configuration's `redirectURIs["postLogout"]`; `nil` and none configured: not sent). Any other URI
    ///   than the configured one is refused: the post-logout redirect is as sensitive as a sign-in's.
    /// - Returns: The request; open its URL in the browser the user signed in with.
    /// - Throws: `invalid_configuration` when the provider has no end-session flow, the redirect URI is not
    ///   the configured one or its kind is not allowed, or the endpoint is unknown; discovery errors; `store_failed` when the stored
    ///   session could not be removed.
    public func prepareEndSession(postLogoutRedirectURI: URL? = nil) async throws(AuthError) -> EndSessionRequest {
        try? await ensureLoaded()
        let built: Result<EndSessionRequest, AuthError>
        do throws(AuthError) {
            built = .success(try await buildEndSession(postLogoutRedirectURI))
        } catch {
            built = .failure(error)
        }
        let storeError = await clearSession()
        let request = try built.get()
        if let storeError { throw storeError }
        return request
    }

    /// Checks the URL the provider sent the browser back to after a logout.
    /// - Parameters:
    ///   - request: What ``prepareEndSession(postLogoutRedirectURI:)`` returned.
    ///   - callbackURL: The URL the browser came back to.
    /// - Throws: `redirect_mismatch` when it is not addressed to the post-logout redirect URI;
    ///   `state_mismatch` when its `state` is missing or differs (the local session is ended all the same).
    public func completeEndSession(_ request: EndSessionRequest, callbackURL: URL) throws(AuthError) {
        guard let redirect = request.postLogoutRedirectURI, RedirectURI.matches(callbackURL, redirect) else {
            throw failure(.redirectMismatch, "The logout callback is not addressed to the post-logout redirect URI.")
        }
        let parameters = try CallbackParameters(url: callbackURL, location: .query, provider: provider.name)
        guard let state = parameters["state"], state == request.state else {
            throw failure(.stateMismatch, "The logout callback's state does not match the one sent.")
        }
    }

    /// Logs out at the provider through a browser (RP-initiated logout), ending the local session first.
    ///
    /// The local session ends before the browser opens, so it is gone even when the user cancels the
    /// browser step (which throws `login_cancelled`) or the callback fails its checks.
    /// - Parameters:
    ///   - authenticator: Shows the end-session page and returns the callback URL.
    ///   - postLogoutRedirectURI: Where the provider sends the browser back (default: the configuration's
    ///     `redirectURIs["postLogout"]`); one is required here.
    ///   - prefersEphemeralSession: Whether the browser should not share cookies (rarely wanted for a
    ///     logout, which needs the provider's cookies).
    /// - Throws: `invalid_configuration` without a post-logout redirect URI or end-session flow;
    ///   `login_cancelled` when the browser step was cancelled; `state_mismatch` or `redirect_mismatch` for
    ///   a callback that fails its checks.
    public func endSession(
        using authenticator: any WebAuthenticator, postLogoutRedirectURI: URL? = nil,
        prefersEphemeralSession: Bool = false
    ) async throws(AuthError) {
        let redirect =
            postLogoutRedirectURI ?? configuration.redirectURIs[EndSessionFlowSpec.redirectPurpose]
        guard let redirect, let scheme = redirect.scheme else {
            _ = await clearSession()
            throw failure(.invalidConfiguration, "A post-logout redirect URI is required to log out in a browser.")
        }
        let request = try await prepareEndSession(postLogoutRedirectURI: redirect)
        let callback = try await authenticator.authenticate(
            WebAuthenticationRequest(
                url: request.url, redirectURI: redirect, callbackScheme: scheme,
                prefersEphemeralSession: prefersEphemeralSession))
        try completeEndSession(request, callbackURL: callback)
    }

    /// Builds the end-session URL from the session in memory.
    private func buildEndSession(_ explicitRedirect: URL?) async throws(AuthError) -> EndSessionRequest {
        guard let flow = provider.flows.endSession else {
            throw failure(.invalidConfiguration, "This provider has no RP-initiated logout.")
        }
        let configured = configuration.redirectURIs[EndSessionFlowSpec.redirectPurpose]
        if let explicitRedirect, explicitRedirect.absoluteString != configured?.absoluteString {
            // The provider sends the browser wherever this says: only the configured URI may go there.
            throw failure(
                .invalidConfiguration,
                "The post-logout redirect URI must be the configured redirectURIs[\"postLogout\"].")
        }
        let redirect = explicitRedirect ?? configured
        if let redirect { try ConfigurationValidator.checkRedirect(redirect, provider: provider) }
        return try await renderEndSession(flow, redirect: redirect, state: RandomToken.make(using: options.random))
    }

    /// Renders the end-session URL of `flow` from the session in memory, with this post-logout redirect URI
    /// (already checked) and state.
    func renderEndSession(
        _ flow: EndSessionFlowSpec, redirect: URL?, state: String
    ) async throws(AuthError) -> EndSessionRequest {
        let grant = EndSessionGrant(flow: flow, redirect: redirect, state: state, idToken: session?.idToken)
        let scope = try await self.scope(grant.variables, rendering: grant.templates)
        let query = try TemplateRenderer.pairs(flow.query, in: scope)
        let url = try builder.endpoint(flow.url, query: query, scope: scope)
        return grant.request(url: url)
    }
}
