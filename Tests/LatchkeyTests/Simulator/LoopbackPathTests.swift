import Foundation
@_spi(Generated) import Latchkey
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The loopback server's path check, on a whole sign-in against the provider simulator (the runtime's own test,
/// `LoopbackRedirectServerTests`, talks to the bare server): a request to another path of the loopback port is
/// 404 and delivers nothing, even with the right state and a code.
@Suite("Loopback sign-in: only the redirect URI's path delivers a callback (simulated OpenID provider)")
struct LoopbackPathTests {
    @Test(
        "a forged callback with the right state on another path is 404; the real callback completes the sign-in",
        arguments: ["/", "/elsewhere", "{path}x", "{path}/extra"])
    func otherPathDeliversNothing(_ forgedPath: String) async throws {
        try await withSimulator(OidcClient.provider) { provider in
            let client = try OidcClient(
                issuer: provider.issuer, clientID: "app-a", options: AuthClientOptions(store: InMemorySessionStore()))
            let statuses = Locked<[Int]>([])
            let agent = HeadlessUserAgent()
            let session = try await client.signInWithLoopback(
                open: { url throws(AuthError) in
                    let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
                    guard let redirect = items.first(where: { $0.name == "redirect_uri" })?.value,
                        let state = items.first(where: { $0.name == "state" })?.value,
                        var forged = URLComponents(string: redirect)
                    else { throw AuthError(.invalidConfiguration, "the authorization URL has no redirect_uri") }
                    forged.path = forgedPath.replacingOccurrences(of: "{path}", with: forged.path)
                    forged.queryItems = [.init(name: "code", value: "forged-code"), .init(name: "state", value: state)]
                    let status = await Self.status(of: forged.url)
                    statuses.withLock { $0.append(status) }
                    try await agent.open(url)
                }, timeout: .seconds(60))
            #expect(statuses.withLock { $0 } == [404])
            #expect(client.client.state == .signedIn(session.userOrPlaceholder))
            let exchanges = provider.tokenRequests
            #expect(exchanges.count == 1)
            #expect(exchanges.first?.formBody["code"] != "forged-code")
        }
    }

    /// The status a GET to `url` is answered with, or 0 when none came.
    private static func status(of url: URL?) async -> Int {
        guard let url else { return 0 }
        let response = try? await URLSession.shared.data(from: url).1
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }
}
