import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyTesting
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

/// Loopback sign-in on a fixed port, on the wire: a configured `http` loopback redirect URI with a port is
/// bound exactly (providers that match redirect URIs exactly refuse a random port) and sent unchanged; a
/// taken port fails before any browser or token request; without a port the system still picks one.
@Suite("Loopback: fixed-port redirect")
struct LoopbackFixedPortTests {
    @Test("ListeningSocket binds the port asked for (network byte order), on IPv4 and IPv6")
    func socketBindsTheGivenPort() async throws {
        let port = try freePort()
        let socket = try ListeningSocket(address: .ipv4, port: port)
        defer { socket.close() }
        #expect(socket.port == port)
        #expect(await RawHTTPClient.isListening(port: port))

        guard let ipv6Port = try? freePort(.ipv6) else { return }  // no IPv6 loopback here
        let ipv6 = try ListeningSocket(address: .ipv6, port: ipv6Port)
        defer { ipv6.close() }
        #expect(ipv6.port == ipv6Port)
        #expect(await RawHTTPClient.isListening(port: ipv6Port, ipv6: true))
    }

    @Test("LoopbackRedirectServer(port:) listens on that port; a port out of range is invalid_configuration")
    func serverPortOption() async throws {
        let port = try freePort()
        let server = try LoopbackRedirectServer(path: "/cb", expectedState: nil, port: port)
        #expect(server.port == port)
        #expect(server.redirectURI.absoluteString == "http://127.0.0.1:\(port)/cb")
        let response = await RawHTTPClient.get(port: port, target: "/cb?code=1")
        #expect(response?.status == 200)
        #expect(try await server.waitForCallback().absoluteString == "http://127.0.0.1:\(port)/cb?code=1")
        await expectAuthError(.invalidConfiguration) {
            _ = try LoopbackRedirectServer(expectedState: nil, port: 70_000)
        }
    }

    @Test(
        "the configured port is bound, and the URI goes unchanged into redirect_uri of authorize and token",
        arguments: ["/oauth/callback", "", "/cb?app=1"])
    func fixedPortOnTheWire(path: String) async throws {
        let port = try freePort()
        let redirect = try #require(URL(string: "http://127.0.0.1:\(port)\(path)"))
        let harness = try AcmeHarness(redirectURI: redirect)
        defer { harness.server.stop() }
        let user = LoopbackUser()
        let session = try await harness.client.signInWithLoopback(open: user.open, timeout: .seconds(60))
        #expect(session.accessToken == "at-1")
        #expect(user.visits == [.init(redirectURI: redirect.absoluteString, port: port, listening: true, status: 200)])
        let form = try #require(harness.requests("/oauth/token").first?.formBody)
        #expect(form["redirect_uri"] == redirect.absoluteString)
        #expect(!(await RawHTTPClient.isListening(port: port)))
    }

    @Test("localhost binds 127.0.0.1 and keeps its host text in redirect_uri")
    func localhostKeepsItsHostText() async throws {
        let port = try freePort()
        let redirect = try #require(URL(string: "http://localhost:\(port)/oauth/callback"))
        let harness = try AcmeHarness(redirectURI: redirect)
        defer { harness.server.stop() }
        let user = LoopbackUser()
        let session = try await harness.client.signInWithLoopback(open: user.open, timeout: .seconds(60))
        #expect(session.accessToken == "at-1")
        #expect(user.visits == [.init(redirectURI: redirect.absoluteString, port: port, listening: true, status: 200)])
        #expect(harness.requests("/oauth/token").first?.formBody["redirect_uri"] == redirect.absoluteString)
    }

    @Test("[::1] with a port binds the IPv6 loopback, when the system has one")
    func ipv6FixedPort() async throws {
        guard let port = try? freePort(.ipv6) else { return }  // no IPv6 loopback here
        let redirect = try #require(URL(string: "http://[::1]:\(port)/cb"))
        let harness = try AcmeHarness(redirectURI: redirect)
        defer { harness.server.stop() }
        let user = LoopbackUser(ipv6: true)
        _ = try await harness.client.signInWithLoopback(open: user.open, timeout: .seconds(60))
        #expect(user.visits == [.init(redirectURI: redirect.absoluteString, port: port, listening: true, status: 200)])
        #expect(harness.requests("/oauth/token").first?.formBody["redirect_uri"] == redirect.absoluteString)
    }

    @Test("a port in use is web_auth_start_failed: no browser, no request to the provider")
    func portInUse() async throws {
        let holder = try ListeningSocket(address: .ipv4)
        defer { holder.close() }
        let redirect = try #require(URL(string: "http://127.0.0.1:\(holder.port)/oauth/callback"))
        let harness = try AcmeHarness(redirectURI: redirect)
        defer { harness.server.stop() }
        let user = LoopbackUser()
        let error = await #expect(throws: AuthError.self) {
            try await harness.client.signInWithLoopback(open: user.open, timeout: .seconds(60))
        }
        #expect(error?.code == .webAuthStartFailed)
        #expect(error?.kind == .misconfigured)
        #expect(error?.message.contains("127.0.0.1:\(holder.port)") == true)
        #expect(error?.message.contains("in use") == true)
        #expect(user.visits.isEmpty)
        #expect(harness.requests("/oauth/token").isEmpty)
        #expect(harness.server.requests.isEmpty)
        #expect(harness.client.state != .authenticating)
    }

    @Test(
        "without a port the system picks one; a loopback URI keeps its host and path, anything else is /callback",
        arguments: [
            ("http://127.0.0.1/oauth/callback", "http://127.0.0.1:PORT/oauth/callback"),
            ("http://localhost/cb", "http://localhost:PORT/cb"),
            ("dev.acme.app://cb", "http://127.0.0.1:PORT/callback"),
        ])
    func noPortIsEphemeral(configured: String, expected: String) async throws {
        let harness = try AcmeHarness(redirectURI: URL(string: configured)!)
        defer { harness.server.stop() }
        let user = LoopbackUser()
        _ = try await harness.client.signInWithLoopback(open: user.open, timeout: .seconds(60))
        let visit = try #require(user.visits.first)
        #expect(visit.port > 0)
        #expect(visit.listening)
        #expect(visit.redirectURI == expected.replacingOccurrences(of: "PORT", with: "\(visit.port)"))
        #expect(harness.requests("/oauth/token").first?.formBody["redirect_uri"] == visit.redirectURI)
    }

    /// A port nothing listens on, that no other test is handed (``UnassignedPort``).
    private func freePort(_ address: LoopbackAddress = .ipv4) throws -> Int {
        try UnassignedPort.take(on: address)
    }
}

/// A browser "user" that approves: it reads `redirect_uri` and `state` from the authorization URL, checks
/// that the redirect's port listens, then requests the callback as a provider's redirect would (the
/// redirect URI's own query kept, `code` and `state` appended) with the URI's host in `Host`.
private final class LoopbackUser: Sendable {
    struct Visit: Equatable {
        var redirectURI: String
        var port: Int
        var listening: Bool
        var status: Int?
    }

    private let recorded = Locked<[Visit]>([])
    private let ipv6: Bool

    init(ipv6: Bool = false) {
        self.ipv6 = ipv6
    }

    /// What the user saw, in order.
    var visits: [Visit] { recorded.withLock { $0 } }

    /// The `open` closure of ``AuthClient/signInWithLoopback(open:timeout:scopes:)``.
    var open: @Sendable (URL) async throws(AuthError) -> Void {
        { [self] url throws(AuthError) in await self.visit(url) }
    }

    private func visit(_ url: URL) async {
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let redirect = items.first { $0.name == "redirect_uri" }?.value ?? ""
        let state = items.first { $0.name == "state" }?.value ?? ""
        let separator = redirect.contains("?") ? "&" : "?"
        guard let callback = URLComponents(string: redirect + separator + "code=good-code&state=\(state)"),
            let port = callback.port, let host = callback.percentEncodedHost
        else {
            recorded.withLock { $0.append(Visit(redirectURI: redirect, port: -1, listening: false)) }
            return
        }
        let listening = await RawHTTPClient.isListening(port: port, ipv6: ipv6)
        let path = callback.percentEncodedPath.isEmpty ? "/" : callback.percentEncodedPath
        let target = path + "?" + (callback.percentEncodedQuery ?? "")
        let response = await RawHTTPClient.get(port: port, target: target, host: "\(host):\(port)", ipv6: ipv6)
        recorded.withLock {
            $0.append(Visit(redirectURI: redirect, port: port, listening: listening, status: response?.status))
        }
    }
}
