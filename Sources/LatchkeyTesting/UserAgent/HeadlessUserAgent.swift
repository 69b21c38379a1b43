import Foundation
@_spi(Generated) import LatchkeyRuntime

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Plays the user's browser in tests and the demo: requests the authorization URL, follows the
/// provider's redirects by hand, and delivers the callback.
///
/// A loopback callback (`http://127.0.0.1:PORT/...` on another origin than the provider's) is requested,
/// which hands it to the runtime's loopback redirect server; a custom-scheme callback is returned
/// without being requested.
public final class HeadlessUserAgent: WebAuthenticator, Sendable {
    /// The most redirects followed.
    public let maximumHops: Int
    private let session: URLSession

    /// Creates a user agent.
    /// - Parameter maximumHops: The most redirects followed (default 10).
    public init(maximumHops: Int = 10) {
        self.maximumHops = maximumHops
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.timeoutIntervalForRequest = 30
        self.session = URLSession(
            configuration: configuration, delegate: RedirectRefusingDelegate(), delegateQueue: nil)
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// Opens a URL the way ``AuthClient/signInWithLoopback(open:timeout:scopes:)`` wants: follows
    /// redirects and requests the loopback callback.
    /// - Throws: `web_auth_start_failed` when a page does not redirect, or after too many hops;
    ///   `network_error` when a request fails.
    public func open(_ url: URL) async throws(AuthError) {
        let callback = try await walk(from: url, until: nil)
        _ = try await fetch(callback)
    }

    /// Follows redirects from `url` until one leads to `redirectURI` (same scheme, host, port and path),
    /// and returns that callback URL without requesting it.
    public func follow(_ url: URL, until redirectURI: URL) async throws(AuthError) -> URL {
        try await walk(from: url, until: redirectURI)
    }

    /// ``WebAuthenticator``: follows the authorization URL to the callback.
    public func authenticate(_ request: WebAuthenticationRequest) async throws(AuthError) -> URL {
        try await follow(request.url, until: request.redirectURI)
    }

    // MARK: - Walking

    private func walk(from start: URL, until redirectURI: URL?) async throws(AuthError) -> URL {
        var current = start
        for _ in 0...maximumHops {
            let (status, location) = try await fetch(current)
            guard (300..<400).contains(status), let location else {
                throw AuthError(
                    .webAuthStartFailed, "The page \(current.absoluteString) answered \(status) instead of a redirect.",
                    status: status)
            }
            guard let next = URL(string: location, relativeTo: current)?.absoluteURL else {
                throw AuthError(.webAuthStartFailed, "The redirect Location '\(location)' is not a URL.")
            }
            if let redirectURI {
                if Self.sameEndpoint(next, redirectURI) { return next }
            } else if Self.isCallback(next, from: current) {
                return next
            }
            guard let scheme = next.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
                return next
            }
            current = next
        }
        throw AuthError(.webAuthStartFailed, "More than \(maximumHops) redirects.")
    }

    /// A custom scheme, or a loopback URL on another origin than the page that redirected.
    static func isCallback(_ url: URL, from page: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased() else { return false }
        if scheme != "http" && scheme != "https" { return true }
        let loopbackHosts: Set<String> = ["127.0.0.1", "localhost", "::1", "[::1]"]
        guard scheme == "http", let host = url.host?.lowercased(), loopbackHosts.contains(host) else { return false }
        return url.host?.lowercased() != page.host?.lowercased() || url.port != page.port
    }

    static func sameEndpoint(_ url: URL, _ redirect: URL) -> Bool {
        url.scheme?.lowercased() == redirect.scheme?.lowercased()
            && url.host?.lowercased() == redirect.host?.lowercased()
            && url.port == redirect.port
            && (url.path.isEmpty ? "/" : url.path) == (redirect.path.isEmpty ? "/" : redirect.path)
    }

    private func fetch(_ url: URL) async throws(AuthError) -> (Int, String?) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw AuthError(.webAuthStartFailed, "A browser cannot request \(url.scheme ?? "this") URLs here.")
        }
        var request = URLRequest(url: url)
        request.httpMethod = "GET"
        request.setValue("text/html", forHTTPHeaderField: "Accept")
        do {
            let (_, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse else {
                throw AuthError(.networkError, "No HTTP response from \(url.host ?? "the server").")
            }
            return (http.statusCode, http.value(forHTTPHeaderField: "Location"))
        } catch let error as AuthError {
            throw error
        } catch {
            throw AuthError(.networkError, "The browser request failed: \(error.localizedDescription)")
        }
    }
}
