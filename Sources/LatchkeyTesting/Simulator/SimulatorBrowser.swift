import Foundation
import LatchkeyRuntime

/// A ``HeadlessUserAgent`` that opens authorization URLs on the simulator whatever their host, so that
/// descriptors with a fixed authorize URL (`https://github.com/login/oauth/authorize`) sign in against
/// it too. Redirects are followed as the agent does; the callback is returned (or, for a loopback
/// redirect, requested).
public struct SimulatorBrowser: WebAuthenticator {
    /// The simulator's base URL.
    public let base: URL
    /// The agent that follows the redirects.
    public let agent: HeadlessUserAgent

    /// Creates a browser for a simulator.
    /// - Parameters:
    ///   - base: The simulator's base URL (``ProviderSimulator/issuer``).
    ///   - agent: The user agent (a new one by default).
    public init(base: URL, agent: HeadlessUserAgent = HeadlessUserAgent()) {
        self.base = base
        self.agent = agent
    }

    /// The URL with the simulator's scheme, host and port.
    public func routed(_ url: URL) -> URL { SimulatorTransport.route(url, to: base) }

    /// ``WebAuthenticator``: follows the authorization URL (on the simulator) to the callback.
    public func authenticate(_ request: WebAuthenticationRequest) async throws(AuthError) -> URL {
        var routedRequest = request
        routedRequest.url = routed(request.url)
        return try await agent.authenticate(routedRequest)
    }

    /// Follows redirects from `url` (on the simulator) until one leads to `redirectURI`; returns that callback.
    public func follow(_ url: URL, until redirectURI: URL) async throws(AuthError) -> URL {
        try await agent.follow(routed(url), until: redirectURI)
    }

    /// Opens `url` (on the simulator) and requests the loopback callback, for
    /// ``AuthClient/signInWithLoopback(open:timeout:scopes:)``.
    public func open(_ url: URL) async throws(AuthError) {
        try await agent.open(routed(url))
    }
}
