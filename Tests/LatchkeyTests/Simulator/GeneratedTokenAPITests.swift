import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

@Suite("Generated clients forward observeTokens and resetTokens")
struct GeneratedTokenAPITests {
    @Test("OidcClient: observeTokens yields the sign-in and the refresh; resetTokens sends nothing and yields nil")
    func forwarded() async throws {
        try await withSimulator(OidcClient.provider) { simulator in
            let oidc = try OidcClient(
                issuer: simulator.issuer, clientID: "demo-client",
                options: AuthClientOptions(store: InMemorySessionStore()))
            await oidc.restore()
            var tokens = oidc.observeTokens().makeAsyncIterator()
            #expect(await tokens.next() == .some(nil))
            let agent = HeadlessUserAgent()
            let session = try await oidc.signInWithLoopback(open: { url throws(AuthError) in try await agent.open(url) }
            )
            #expect(await tokens.next()??.accessToken == session.accessToken)
            let refreshed = try await oidc.currentSession(forceRefresh: true)
            #expect(refreshed.accessToken != session.accessToken)
            #expect(await tokens.next()??.accessToken == refreshed.accessToken)
            simulator.resetRecording()
            try await Auth(oidc).resetTokens()
            #expect(simulator.requests.isEmpty, "\(simulator.requests.map(\.path))")
            #expect(await tokens.next() == .some(nil))
            #expect(oidc.client.state == .signedOut)
            await #expect(throws: AuthError.self) { _ = try await oidc.validAccessToken() }
            #expect(simulator.requests.isEmpty)
        }
    }
}
