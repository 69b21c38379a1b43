import Foundation

/// A prepared browser sign-in: open ``url``, then hand the callback URL to
/// ``BrowserSignInProviding/handleCallback(_:)``.
public struct AuthorizationRequest: Sendable, Hashable {
    /// The authorization URL to open in a browser.
    public var url: URL
    /// The redirect URI the provider sends the browser back to.
    public var redirectURI: URL
    /// The state that the callback must carry back.
    public var state: String
    /// The nonce expected in the ID token, if any.
    public var nonce: String?
    /// When a pushed authorization request's `request_uri` in ``url`` expires (RFC 9126 `expires_in`, less a
    /// moment for the browser to open it); `nil` when the request was not pushed. Prepare the sign-in again
    /// rather than open an expired URL (the client's own browser sign-ins push again by themselves).
    public var expiresAt: Date?

    /// Creates a request.
    /// - Parameters:
    ///   - url: The authorization URL.
    ///   - redirectURI: The redirect URI.
    ///   - state: The state.
    ///   - nonce: The nonce.
    ///   - expiresAt: When a pushed request's `request_uri` expires.
    public init(url: URL, redirectURI: URL, state: String, nonce: String? = nil, expiresAt: Date? = nil) {
        self.url = url
        self.redirectURI = redirectURI
        self.state = state
        self.nonce = nonce
        self.expiresAt = expiresAt
    }

    /// The redirect URI's scheme, as `ASWebAuthenticationSession` wants it.
    public var callbackScheme: String { redirectURI.scheme ?? "" }
}
