import Foundation
import LatchkeyPlatform
import LatchkeyTokens

/// A client whose provider signs in through a browser (authorization code with PKCE).
public protocol BrowserSignInProviding: AuthProviderClient {}

extension BrowserSignInProviding {
    /// Exchanges a bare authorization code the app read itself for a session, with the newest pending
    /// sign-in's verifier (supabase-swift's `exchangeCodeForSession(authCode:)`); only for providers that echo
    /// no state. See `AuthClient.exchangeCodeForSession(authCode:)`.
    /// - Parameter authCode: The code.
    /// - Returns: The new session.
    /// - Throws: `invalid_callback` when no sign-in is pending, and the exchange's errors.
    @discardableResult
    public func exchangeCodeForSession(authCode: String) async throws(AuthError) -> Session {
        try await client.exchangeCodeForSession(authCode: authCode)
    }

    /// Signs in through a browser (authorization code with PKCE), for example `AppleWebAuthenticator`.
    /// - Parameters:
    ///   - authenticator: Shows the authorization page and returns the callback URL.
    ///   - scopes: The scopes to request (default: the descriptor's).
    ///   - prefersEphemeralSession: Whether the browser should not share cookies with other sign-ins.
    ///   - additionalParameters: More authorization parameters, e.g. `prompt` or a provider's own.
    /// - Returns: The new session.
    /// - Throws: `login_cancelled` when the user closes the browser or denies access; `state_mismatch`,
    ///   `redirect_mismatch` and provider errors otherwise.
    @discardableResult
    public func signInWithBrowser(
        using authenticator: any WebAuthenticator,
        scopes: [String]? = nil,
        prefersEphemeralSession: Bool = false,
        additionalParameters: [String: String] = [:]
    ) async throws(AuthError) -> Session {
        try await client.signInWithBrowser(
            using: authenticator, scopes: scopes, prefersEphemeralSession: prefersEphemeralSession,
            additionalParameters: additionalParameters)
    }

    /// Signs in through the system browser and a loopback redirect on 127.0.0.1 (RFC 8252), for
    /// command-line tools and desktop apps.
    /// - Parameters:
    ///   - open: Opens the authorization URL, e.g. `SystemBrowser().opener`.
    ///   - timeout: How long to wait for the browser to come back.
    /// - Returns: The new session.
    /// - Throws: `timeout` when no callback arrives in time, and the errors of a browser sign-in.
    @discardableResult
    public func signInWithLoopback(
        open: @escaping @Sendable (URL) async throws(AuthError) -> Void,
        timeout: LatchkeyDuration = .seconds(300)
    ) async throws(AuthError) -> Session {
        try await client.signInWithLoopback(open: open, timeout: timeout)
    }

    /// Prepares a browser sign-in whose callback arrives later, possibly after a relaunch.
    /// - Parameters:
    ///   - scopes: The scopes to request (default: the descriptor's).
    ///   - additionalParameters: More authorization parameters, e.g. `prompt` or a provider's own.
    /// - Returns: The authorization request; open its URL, then pass the callback to ``handleCallback(_:)``.
    /// - Throws: `invalid_configuration` without a redirect URI; discovery errors.
    public func prepareAuthorization(
        scopes: [String]? = nil,
        additionalParameters: [String: String] = [:]
    ) async throws(AuthError) -> AuthorizationRequest {
        try await client.prepareAuthorization(scopes: scopes, additionalParameters: additionalParameters)
    }

    /// Whether a URL is the callback of a browser sign-in this client started (it is addressed to the
    /// redirect URI and carries a pending sign-in's state).
    /// - Parameter url: The URL the app was opened with.
    /// - Returns: `true` when ``handleCallback(_:)`` should take it.
    public func canHandle(_ url: URL) async -> Bool { await client.canHandle(url) }

    /// Completes a browser sign-in from its callback URL (also after a cold start).
    /// - Parameter url: The URL the browser was sent back to.
    /// - Returns: The new session.
    /// - Throws: `redirect_mismatch`, `state_mismatch` or `login_cancelled` with no token request, and
    ///   provider errors.
    @discardableResult
    public func handleCallback(_ url: URL) async throws(AuthError) -> Session {
        try await client.handleCallback(url)
    }

    /// Completes a browser sign-in whose provider POSTed the callback (`response_mode=form_post`, as Sign
    /// in with Apple does), for server-side code that received that POST.
    /// - Parameters:
    ///   - formBody: The POST body as received, e.g. `code=…&state=…&id_token=…`.
    ///   - redirectURI: The redirect URI the POST arrived at (default: the configured one).
    /// - Returns: The new session.
    /// - Throws: `invalid_callback` for a body that is too large or not form-encoded; any error of
    ///   ``handleCallback(_:)``.
    @discardableResult
    public func handleCallback(formBody: String, redirectURI: URL? = nil) async throws(AuthError) -> Session {
        try await client.handleCallback(formBody: formBody, redirectURI: redirectURI)
    }
}
