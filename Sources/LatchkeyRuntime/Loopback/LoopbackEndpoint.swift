import Foundation
import LatchkeyTokens

/// Where a loopback redirect server listens, and the redirect URI it announces: a port the system picks
/// on `127.0.0.1` (the default), or exactly the host and port of a configured loopback redirect URI, for
/// providers that match redirect URIs exactly.
struct LoopbackEndpoint: Sendable, Equatable {
    /// The interface bound: `localhost` binds `127.0.0.1`; never a public interface.
    var address: LoopbackAddress
    /// The port bound, or 0 for one the system picks.
    var port: Int
    /// The path the callback must be requested at (`/` for a redirect URI with an empty path).
    var path: String
    /// The host as the redirect URI spells it (`127.0.0.1`, `[::1]`, `localhost`).
    var host: String
    /// The path as the redirect URI spells it (percent-encoded, possibly empty).
    var announcedPath: String
    /// The configured redirect URI: announced unchanged when it names its port, else with the bound port.
    var configured: URL?

    /// An endpoint on a loopback interface with a path and a port (0: the system picks).
    init(path: String, address: LoopbackAddress, port: Int) {
        self.address = address
        self.port = port
        self.path = path
        self.host = address.urlHost
        self.announcedPath = path
        self.configured = nil
    }

    /// The endpoint of a loopback redirect URI: `http` on `127.0.0.1`, `[::1]` or `localhost`, with or
    /// without a port; its path, host text and query are kept.
    /// - Throws: `invalid_configuration` for any other URI, or a port outside 0...65535.
    init(redirectURI: URL) throws(AuthError) {
        guard let parts = URLComponents(url: redirectURI, resolvingAgainstBaseURL: false),
            parts.scheme?.lowercased() == "http", let host = parts.percentEncodedHost,
            let address = Self.address(ofHost: host), parts.user == nil, parts.password == nil,
            parts.fragment == nil
        else {
            throw AuthError(
                .invalidConfiguration,
                "\(redirectURI.absoluteString) is not an http redirect URI on 127.0.0.1, [::1] or localhost")
        }
        let port = parts.port ?? 0
        guard (0...65535).contains(port) else {
            throw AuthError(.invalidConfiguration, "the port of \(redirectURI.absoluteString) is out of range")
        }
        self.address = address
        self.port = port
        self.host = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        self.announcedPath = parts.percentEncodedPath
        self.path = announcedPath.isEmpty ? "/" : announcedPath
        self.configured = redirectURI
    }

    /// The endpoint of a loopback sign-in. A configured loopback `http` redirect URI gives the host and
    /// path; its port when it names one (a provider that matches redirect URIs exactly refuses a random
    /// port), otherwise one the system picks (RFC 8252 section 7.3: the provider allows any port, and the
    /// path must match the registered one). Anything else: `http://127.0.0.1:PORT/callback`.
    /// - Throws: `invalid_configuration` for a loopback redirect URI with a port out of range.
    static func signIn(configuredRedirect: URL?) throws(AuthError) -> LoopbackEndpoint {
        guard let configuredRedirect, configuredRedirect.scheme?.lowercased() == "http",
            RedirectURI.isLoopback(configuredRedirect.host)
        else { return LoopbackEndpoint(path: "/callback", address: .ipv4, port: 0) }
        return try LoopbackEndpoint(redirectURI: configuredRedirect)
    }

    /// The redirect URI to announce once `boundPort` is known: a configured URI unchanged when it names
    /// its port, or with the bound port added; otherwise `http://127.0.0.1:PORT/PATH`.
    func redirectURI(boundPort: Int) -> URL? {
        guard let configured else { return URL(string: callbackBase(boundPort: boundPort)) }
        if port != 0 { return configured }
        guard var parts = URLComponents(url: configured, resolvingAgainstBaseURL: false) else { return nil }
        parts.port = boundPort
        return parts.url
    }

    /// The callback URL's prefix: scheme, host as announced, port and path, without a query.
    func callbackBase(boundPort: Int) -> String {
        "http://\(host):\(boundPort)\(announcedPath)"
    }

    /// The interface for a loopback host, or `nil` for any other host.
    private static func address(ofHost host: String) -> LoopbackAddress? {
        switch host.lowercased() {
        case "127.0.0.1", "localhost": .ipv4
        case "[::1]", "::1": .ipv6
        default: nil
        }
    }
}
