import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// A client configured without a redirect URI: only a provider whose client configuration lists the allowed
/// ones (`clientPolicy.allowedRedirectURIsField`, Base IdP) can supply one; every other provider refuses the
/// browser sign-in before any request.
@Suite("Browser sign-in without a configured redirect URI")
struct DefaultRedirectURITests {
    @Test("A provider that lists no redirect URIs refuses it before any request")
    func refusedWithoutAListBeforeAnyRequest() async throws {
        try await withSimulator(OidcClient.provider) { simulator in
            let oidc = try OidcClient(
                issuer: simulator.issuer, clientID: "demo-client",
                options: AuthClientOptions(store: InMemorySessionStore()))
            let error = await #expect(throws: AuthError.self) {
                _ = try await oidc.client.prepareAuthorization()
            }
            #expect(error?.code == .invalidConfiguration)
            #expect(simulator.requests.isEmpty)
        }
    }
}
