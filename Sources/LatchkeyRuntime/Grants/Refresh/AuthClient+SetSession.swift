import Foundation
import LatchkeyTokens

extension AuthClient {
    /// Makes a session from a refresh token the app holds (one it received elsewhere, e.g. from a web view):
    /// sends the refresh flow's request with it and stores the answer as the session.
    ///
    /// Unlike ``currentSession(forceRefresh:)``, it neither needs nor uses a stored session; the new session
    /// replaces any current one (a ``signOut(scope:)`` while the request is on the wire wins).
    /// - Parameter refreshToken: The refresh token.
    /// - Returns: The new session.
    /// - Throws: `invalid_configuration` without a refresh flow; the provider's mapped error
    ///   (`session_expired` for a dead token); `login_cancelled` when a sign-out won.
    @discardableResult
    public func refreshSession(refreshToken: String) async throws(AuthError) -> Session {
        guard let flow = provider.flows.refresh else {
            throw failure(.invalidConfiguration, "This provider has no refresh flow.")
        }
        try? await ensureLoaded()
        let fence = signInFence()
        let (spec, document, response) = try await send(
            flow.request, flow: ["refresh_token": .string(refreshToken)], isTokenRequest: true)
        var fresh = try decodeSession(document, response, request: spec)
        fresh.refreshToken = fresh.refreshToken ?? refreshToken
        _ = try await validateNewIDToken(fresh, nonce: nil)
        _ = try await validateNewAccessToken(&fresh)
        return try await install(fresh, fence: fence)
    }

    /// Makes a session from an access token and a refresh token the app holds, as supabase-swift's
    /// `setSession(accessToken:refreshToken:)` does: when the access token (a JWT) has expired, or carries no
    /// `exp`, the refresh token is redeemed (``refreshSession(refreshToken:)``); otherwise the user is fetched
    /// with the access token (the user-info flow), which must name the token's `sub`, and the two tokens
    /// become the session with the token's expiry.
    /// - Parameters:
    ///   - accessToken: The access token.
    ///   - refreshToken: The refresh token.
    /// - Returns: The new session.
    /// - Throws: `invalid_configuration` without a user-info flow; `invalid_response` when the user is another
    ///   than the token's subject; the provider's mapped errors.
    @discardableResult
    public func setSession(accessToken: String, refreshToken: String) async throws(AuthError) -> Session {
        guard let expiry = SessionDecoder.unverifiedExpiry(ofJWT: accessToken),
            Date(timeIntervalSince1970: expiry) > now()
        else {
            return try await refreshSession(refreshToken: refreshToken)
        }
        guard let userInfo = provider.flows.userInfo else {
            throw failure(.invalidConfiguration, "This provider has no user-info request.")
        }
        try? await ensureLoaded()
        let fence = signInFence()
        let (_, document, _) = try await send(userInfo.request, accessToken: accessToken)
        let user = try decoder.user(from: document ?? .null)
        if let subject = JWTPayload.claims(of: accessToken)?["sub"]?.string, subject != user.id {
            throw failure(.invalidResponse, "The user document names another subject than the access token.")
        }
        var session = Session(
            accessToken: accessToken, refreshToken: refreshToken, expiresAt: Date(timeIntervalSince1970: expiry),
            issuedAt: now(), user: user, provider: provider.name)
        _ = try await validateNewAccessToken(&session)
        return try await install(session, fence: fence)
    }

    /// Exchanges a bare authorization code (an emailed link's or a browser sign-in's `?code=`, which the app
    /// read itself) for a session, with the newest pending sign-in's verifier, as
    /// supabase-swift's `exchangeCodeForSession(authCode:)` does. Only for providers that echo no `state`
    /// (`returnsState: false`, GoTrue): anywhere else a code alone proves nothing and is refused.
    /// - Parameter authCode: The code.
    /// - Returns: The new session.
    /// - Throws: `invalid_callback` when no sign-in is pending; `state_mismatch` for a provider that returns a
    ///   state; the exchange's errors.
    @discardableResult
    public func exchangeCodeForSession(authCode: String) async throws(AuthError) -> Session {
        guard let flow = provider.flows.authorizationCode else {
            throw failure(.invalidConfiguration, "This provider has no browser sign-in.")
        }
        guard !flow.returnsState else {
            throw failure(
                .stateMismatch, "This provider returns a state: pass the whole callback URL to handleCallback.")
        }
        guard let pending = try await pendingFlows().last else {
            throw failure(.invalidCallback, "No sign-in is waiting for a code.")
        }
        guard var components = URLComponents(url: pending.redirectURI, resolvingAgainstBaseURL: false) else {
            throw failure(.invalidCallback, "The pending sign-in's redirect URI is malformed.")
        }
        components.fragment = nil
        components.queryItems =
            (components.queryItems ?? []) + [
                URLQueryItem(name: provider.callback.codeParameter, value: authCode)
            ]
        guard let url = components.url else { throw failure(.invalidCallback, "The code cannot be sent.") }
        return try await handleCallback(url)
    }
}
