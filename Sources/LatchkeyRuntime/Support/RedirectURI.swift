import Foundation

/// Classifies and compares redirect URIs.
enum RedirectURI {
    /// The kind of a redirect URI, or `nil` when it is none of the allowed shapes (plain http on a
    /// public host, no scheme, a fragment, user info).
    static func kind(of url: URL) -> CallbackSpec.RedirectKind? {
        guard let scheme = url.scheme?.lowercased(), !scheme.isEmpty, url.fragment == nil, url.user == nil,
            url.password == nil
        else { return nil }
        switch scheme {
        case "https": return (url.host ?? "").isEmpty ? nil : .https
        case "http": return isLoopback(url.host) ? .loopback : nil
        default: return .customScheme
        }
    }

    /// Whether a host is a loopback address (`127.0.0.1`, `::1`, `localhost`).
    static func isLoopback(_ host: String?) -> Bool {
        guard let host = host?.lowercased() else { return false }
        return host == "127.0.0.1" || host == "::1" || host == "[::1]" || host == "localhost"
    }

    /// Whether a URL may be requested: absolute `https`, or `http` on a loopback host.
    static func isAllowedEndpoint(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty, url.user == nil else {
            return false
        }
        return scheme == "https" || (scheme == "http" && isLoopback(host))
    }

    /// Whether a callback URL is addressed to a redirect URI: same scheme and host (case-insensitive),
    /// same port and same path, and no user info. Query and fragment are not compared.
    static func matches(_ callback: URL, _ redirect: URL) -> Bool {
        guard let callbackParts = URLComponents(url: callback, resolvingAgainstBaseURL: false),
            let redirectParts = URLComponents(url: redirect, resolvingAgainstBaseURL: false),
            callbackParts.user == nil, callbackParts.password == nil
        else { return false }
        return callbackParts.scheme?.lowercased() == redirectParts.scheme?.lowercased()
            && (callbackParts.host ?? "").lowercased() == (redirectParts.host ?? "").lowercased()
            && callbackParts.port == redirectParts.port
            && callbackParts.percentEncodedPath == redirectParts.percentEncodedPath
    }
}
