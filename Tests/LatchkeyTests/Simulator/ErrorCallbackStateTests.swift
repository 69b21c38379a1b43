import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// The state on error callbacks, against the provider simulator (the runtime's own test,
/// `ForgedCallbackTests`, uses a scripted backend): an error callback proves nothing without the pending
/// sign-in's state, so it ends nothing and the real callback still completes the sign-in.
@Suite("Error callbacks need the state (simulated OpenID provider)")
struct ErrorCallbackStateTests {
    static let redirect = URL(string: "com.example.app:/oauth/callback")!

    @Test("forged error callbacks (no state, another state) are state_mismatch and end nothing; the real one completes")
    func forgedErrorsEndNothing() async throws {
        try await withSimulator(OidcClient.provider) { simulator in
            let client = try AuthClient(
                provider: OidcClient.provider, configuration: simulator.configuration(redirectURI: Self.redirect),
                options: AuthClientOptions(transport: simulator.transport, store: InMemorySessionStore()))
            let request = try await client.prepareAuthorization()
            for forged in ["error=access_denied", "error=access_denied&state=forged-state"] {
                let url = URL(string: Self.redirect.absoluteString + "?" + forged)!
                await expectCode(.stateMismatch) { _ = try await client.handleCallback(url) }
            }
            #expect(simulator.tokenRequests.isEmpty)
            #expect(!client.state.isSignedIn)

            // The sign-in is still pending: the provider's real callback completes it.
            let callback = try await simulator.browser.follow(request.url, until: Self.redirect)
            let session = try await client.handleCallback(callback)
            #expect(client.state == .signedIn(session.userOrPlaceholder))
            #expect(simulator.tokenRequests.count == 1)
        }
    }
}
