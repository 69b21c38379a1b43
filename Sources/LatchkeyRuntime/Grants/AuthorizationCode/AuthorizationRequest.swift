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

    /// Creates a request.
    /// - Parameters:
    ///   - url: The authorization URL.
    ///   - redirectURI: The redirect URI.
    ///   - state: The state.
    ///   - nonce: The nonce.
    public init(url: URL, redirectURI: URL, state: String, nonce: String? = nil) {
        self.url = url
        self.redirectURI = redirectURI
        self.state = state
        self.nonce = nonce
    }

    /// The redirect URI's scheme, as `ASWebAuthenticationSession` wants it.
    public var callbackScheme: String { redirectURI.scheme ?? "" }
}
