import Foundation
import LatchkeyVocabulary

/// Classifies and compares redirect URIs.
enum RedirectURI {
    /// The kind of a redirect URI, or `nil` when it is none of the allowed shapes (plain http on a
    /// public host, no scheme, a fragment, user info, a scheme that is not an app's own).
    static func kind(of url: URL) -> CallbackSpec.RedirectKind? {
        guard let scheme = url.scheme?.lowercased(), !scheme.isEmpty, url.fragment == nil, url.user == nil,
            url.password == nil
        else { return nil }
        switch scheme {
        case "https": return (url.host ?? "").isEmpty ? nil : .https
        case "http": return isLoopback(url.host) ? .loopback : nil
        default: return isAppScheme(scheme) ? .customScheme : nil
        }
    }

    /// Schemes that belong to browsers, the system or other protocols, never to an app (RFC 8252 §7.1,
    /// §8.4): a "redirect" there runs script (`javascript:`, `vbscript:`), shows attacker content (`data:`,
    /// `blob:`, `about:`), reads local files (`file:`) or hands the code to another program.
    static let reservedSchemes: Set<String> = [
        "about", "blob", "chrome", "chrome-extension", "content", "data", "file", "filesystem", "ftp", "intent",
        "jar", "javascript", "mailto", "moz-extension", "resource", "safari-extension", "sms", "tel", "urn",
        "view-source", "vbscript", "ws", "wss",
    ]

    /// Whether a scheme can be an app's private-use scheme (RFC 8252 §7.1): RFC 3986 scheme syntax
    /// (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`), not one of ``reservedSchemes``, and either a reverse
    /// domain name (`com.example.app`, recommended) or a name of at least two characters (`myapp`; one
    /// letter reads as a Windows drive, `C:/Users/…`).
    static func isAppScheme(_ scheme: String) -> Bool {
        let lower = scheme.lowercased()
        guard let first = lower.unicodeScalars.first, ("a"..."z").contains(first),
            lower.unicodeScalars.allSatisfy({
                ("a"..."z").contains($0) || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0)
            }),
            !reservedSchemes.contains(lower), lower.count >= 2
        else { return false }
        return true
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
