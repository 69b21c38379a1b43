import Foundation
import LatchkeyTokens

/// What a ``WebAuthenticator`` is asked to do: show ``url`` and return the callback.
public struct WebAuthenticationRequest: Sendable, Hashable {
    /// The authorization URL.
    public var url: URL
    /// The redirect URI the provider sends the browser back to.
    public var redirectURI: URL
    /// The redirect URI's scheme.
    public var callbackScheme: String
    /// Whether the browser should not share cookies with the user's browser.
    public var prefersEphemeralSession: Bool

    /// Creates a request.
    /// - Parameters:
    ///   - url: The authorization URL.
    ///   - redirectURI: The redirect URI.
    ///   - callbackScheme: The redirect URI's scheme.
    ///   - prefersEphemeralSession: Whether to avoid shared cookies.
    public init(url: URL, redirectURI: URL, callbackScheme: String, prefersEphemeralSession: Bool = false) {
        self.url = url
        self.redirectURI = redirectURI
        self.callbackScheme = callbackScheme
        self.prefersEphemeralSession = prefersEphemeralSession
    }
}

/// Shows an authorization URL to the user and returns the callback URL.
///
/// `ASWebAuthenticationSession` on Apple platforms (`AppleWebAuthenticator`); a test double in tests.
public protocol WebAuthenticator: Sendable {
    /// Runs the browser part of a sign-in.
    /// - Parameter request: The URL to show and the expected redirect.
    /// - Returns: The callback URL.
    /// - Throws: `login_cancelled` when the user closed the browser; `web_auth_start_failed` when it could
    ///   not be shown.
    func authenticate(_ request: WebAuthenticationRequest) async throws(AuthError) -> URL
}
