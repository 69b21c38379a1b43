import Foundation
import LatchkeyTokens

/// How a browser sheet recognises the redirect that ends a sign-in: the platform-neutral rule behind
/// `ASWebAuthenticationSession.Callback` (`.customScheme(_:)` or `.https(host:path:)`).
///
/// An `https` redirect is matched by host and path (a universal link: the app's associated domain), any other
/// scheme by the scheme alone. An `http` redirect is refused: an authentication sheet can never be sure it is
/// the app that receives it, so a desktop app uses ``BrowserSignInProviding/signInWithLoopback(open:timeout:)``
/// for loopback redirects instead.
public enum WebAuthenticationCallback: Sendable, Hashable {
    /// Any URL with this scheme (lowercase) ends the sign-in.
    case customScheme(String)
    /// An `https` URL on this host (lowercase) with exactly this path ends the sign-in.
    case https(host: String, path: String)

    /// The callback that matches a redirect URI.
    ///
    /// An `https` redirect without a path matches the path `/`.
    /// - Parameter redirectURI: The redirect URI sent to the provider.
    /// - Throws: `invalid_configuration` when the redirect URI is `http`, has no scheme, an invalid scheme, or is
    ///   an `https` URI without a host or with a port or user information (a universal link has neither).
    public init(redirectURI: URL) throws(AuthError) {
        try self.init(redirectURI: redirectURI, universalLinksSupported: true)
    }

    /// The callback that matches a redirect URI, on a system whose authentication sheet may not match `https`
    /// redirects (`ASWebAuthenticationSession.Callback` needs iOS 17.4, macOS 14.4, visionOS 1.1 or watchOS 10.4).
    /// - Parameters:
    ///   - redirectURI: The redirect URI sent to the provider.
    ///   - universalLinksSupported: Whether the sheet can match an `https` redirect by host and path.
    /// - Throws: What ``init(redirectURI:)`` throws, and `invalid_configuration`
    ///   (``universalLinksUnavailable``) for an `https` redirect when `universalLinksSupported` is `false`.
    package init(redirectURI: URL, universalLinksSupported: Bool) throws(AuthError) {
        guard let components = URLComponents(url: redirectURI, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased(), WebAuthenticationCallback.isValidScheme(scheme)
        else {
            throw AuthError(.invalidConfiguration, "The redirect URI has no valid scheme.")
        }
        switch scheme {
        case "http":
            throw AuthError(
                .invalidConfiguration,
                "An authentication sheet cannot complete an http redirect: register a custom scheme or an https "
                    + "universal link, or sign in with a loopback redirect (signInWithLoopback).")
        case "https":
            guard let host = components.host?.lowercased(), !host.isEmpty else {
                throw AuthError(.invalidConfiguration, "The https redirect URI has no host.")
            }
            guard components.port == nil, components.user == nil, components.password == nil else {
                throw AuthError(
                    .invalidConfiguration,
                    "An https redirect URI for an authentication sheet is a universal link: no port, no user.")
            }
            guard universalLinksSupported else { throw WebAuthenticationCallback.universalLinksUnavailable }
            let path = components.path
            self = .https(host: host, path: path.isEmpty ? "/" : path)
        default:
            self = .customScheme(scheme)
        }
    }

    /// The error for an `https` redirect on a system whose authentication sheet matches custom schemes only.
    package static let universalLinksUnavailable = AuthError(
        .invalidConfiguration,
        "An https (universal link) redirect needs iOS 17.4, macOS 14.4, visionOS 1.1 or watchOS 10.4 for the "
            + "authentication sheet to recognise it: on earlier systems register a custom URL scheme as the "
            + "redirect URI.")

    /// Whether a URL the browser reached is this callback.
    /// - Parameter url: The URL.
    /// - Returns: `true` when the scheme (and for ``https(host:path:)`` the host and path) match.
    public func matches(_ url: URL) -> Bool {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased()
        else { return false }
        switch self {
        case .customScheme(let expected):
            return scheme == expected
        case .https(let host, let path):
            let actualPath = components.path.isEmpty ? "/" : components.path
            return scheme == "https" && components.host?.lowercased() == host && components.port == nil
                && actualPath == path
        }
    }

    /// RFC 3986: `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
    private static func isValidScheme(_ scheme: String) -> Bool {
        guard let first = scheme.utf8.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first) else {
            return false
        }
        return scheme.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"),
                UInt8(ascii: "-"), UInt8(ascii: "."):
                true
            default:
                false
            }
        }
    }
}
