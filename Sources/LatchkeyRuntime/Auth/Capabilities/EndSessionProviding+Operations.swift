import Foundation
import LatchkeyPlatform

extension EndSessionProviding {
    /// Logs out at the provider in a browser (RP-initiated logout). The local session ends first, even
    /// when the browser step is cancelled.
    /// - Parameters:
    ///   - authenticator: Shows the logout page and returns the callback URL.
    ///   - postLogoutRedirectURI: Where the provider sends the browser back (default:
    ///     `redirectURIs["postLogout"]`).
    ///   - prefersEphemeralSession: Whether the browser should not share cookies (rarely wanted for a
    ///     logout, which needs the provider's cookies).
    /// - Throws: `login_cancelled` when the browser step was cancelled; `state_mismatch` when the
    ///   callback's state differs.
    public func endSession(
        using authenticator: any WebAuthenticator,
        postLogoutRedirectURI: URL? = nil,
        prefersEphemeralSession: Bool = false
    ) async throws(AuthError) {
        try await client.endSession(
            using: authenticator, postLogoutRedirectURI: postLogoutRedirectURI,
            prefersEphemeralSession: prefersEphemeralSession)
    }

    /// Logs out at the provider through the system browser and a loopback redirect on 127.0.0.1, for
    /// command-line tools and desktop apps. The local session ends first, whatever happens in the browser.
    ///
    /// The post-logout redirect URI is the configured `redirectURIs["postLogout"]` when it is a loopback
    /// `http` URI, else the loopback URI a loopback sign-in would use; the provider must know it (register it
    /// as a post-logout redirect URI). The callback must carry the state sent; the browser is then shown
    /// ``LoopbackPages/signedOut`` from ``AuthClientOptions/loopbackPages``.
    /// - Parameters:
    ///   - open: Opens the end-session URL, e.g. `SystemBrowser().opener`.
    ///   - timeout: How long to wait for the browser to come back.
    /// - Throws: `timeout` when the provider did not send the browser back in time, `login_cancelled` when
    ///   cancelled, `invalid_configuration` when the provider has no end-session endpoint.
    public func endSessionWithLoopback(
        open: @escaping @Sendable (URL) async throws(AuthError) -> Void,
        timeout: LatchkeyDuration = .seconds(300)
    ) async throws(AuthError) {
        try await client.endSessionWithLoopback(open: open, timeout: timeout)
    }

    /// Ends the local session and returns the provider's logout URL for the app to open.
    /// - Parameter postLogoutRedirectURI: Where the provider sends the browser back (default:
    ///   `redirectURIs["postLogout"]`).
    /// - Returns: The logout request; check its callback with ``completeEndSession(_:callbackURL:)``.
    /// - Throws: `invalid_configuration` when the endpoint is unknown; discovery errors.
    public func prepareEndSession(postLogoutRedirectURI: URL? = nil) async throws(AuthError) -> EndSessionRequest {
        try await client.prepareEndSession(postLogoutRedirectURI: postLogoutRedirectURI)
    }

    /// Checks the URL the provider sent the browser back to after a logout.
    /// - Parameters:
    ///   - request: What ``prepareEndSession(postLogoutRedirectURI:)`` returned.
    ///   - callbackURL: The URL the browser came back to.
    /// - Throws: `redirect_mismatch` when it is not addressed to the post-logout redirect URI;
    ///   `state_mismatch` when its `state` is missing or differs.
    public func completeEndSession(_ request: EndSessionRequest, callbackURL: URL) async throws(AuthError) {
        try await client.completeEndSession(request, callbackURL: callbackURL)
    }
}
