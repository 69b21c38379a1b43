import Foundation

/// A prepared OpenID Connect RP-initiated logout: open ``url`` in the browser the user signed in with.
///
/// The provider ends its own session and, when a post-logout redirect URI was sent, sends the browser
/// back to it with ``state``; pass that URL to ``EndSessionProviding/completeEndSession(_:callbackURL:)``.
///
/// The URL carries the ID token (`id_token_hint`): ``description`` and the mirror leave its query out.
public struct EndSessionRequest: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The end-session URL, with `id_token_hint`, `post_logout_redirect_uri`, `client_id` and `state` as
    /// the descriptor declares them.
    public let url: URL
    /// The state sent (random, from the client's random source); the callback must carry it back.
    public let state: String
    /// Where the provider sends the browser back, or `nil` when none was sent (then nothing comes back).
    public let postLogoutRedirectURI: URL?

    /// Creates a request.
    /// - Parameters:
    ///   - url: The end-session URL.
    ///   - state: The state sent.
    ///   - postLogoutRedirectURI: The post-logout redirect URI sent, if any.
    public init(url: URL, state: String, postLogoutRedirectURI: URL?) {
        self.url = url
        self.state = state
        self.postLogoutRedirectURI = postLogoutRedirectURI
    }

    /// The end-session endpoint without its query (which holds the ID token) and the post-logout redirect URI.
    public var description: String {
        var endpoint = URLComponents(url: url, resolvingAgainstBaseURL: false)
        endpoint?.query = nil
        endpoint?.fragment = nil
        let redirect = postLogoutRedirectURI?.absoluteString ?? "none"
        return "EndSessionRequest(endpoint: \(endpoint?.string ?? "?"), post-logout redirect URI: \(redirect))"
    }

    /// A mirror without the URL's query, so `dump` and debuggers do not show the ID token.
    public var customMirror: Mirror { Mirror(self, children: ["summary": description]) }
}
