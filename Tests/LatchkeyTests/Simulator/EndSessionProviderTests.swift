import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// RP-initiated logout for every descriptor whose provider publishes an `end_session_endpoint` in its
/// discovery document (not only the generic OpenID client): the generated clients offer it, and the URL is
/// built from the discovered endpoint with the session's ID token.
@Suite("RP-initiated logout for the discovering providers")
struct EndSessionProviderTests {
    /// Compiles only while each client conforms.
    private static func offersEndSession(_ client: (some EndSessionProviding).Type) -> Bool { true }

    @Test("the generated clients of the providers that publish end_session_endpoint offer endSession")
    func generatedClientsOfferIt() {
        #expect(Self.offersEndSession(KeycloakClient.self))
        #expect(Self.offersEndSession(OktaClient.self))
        #expect(Self.offersEndSession(ZitadelClient.self))
        #expect(Self.offersEndSession(EntraIDClient.self))
        #expect(Self.offersEndSession(Auth0Client.self))
        #expect(Self.offersEndSession(OidcClient.self))
    }

    @Test(
        "the end-session URL is the discovered endpoint with the ID token, client id and state; the session ends",
        arguments: ["keycloak", "okta", "zitadel", "entra-id", "auth0"])
    func endSessionURL(provider name: String) async throws {
        try await ConformanceHarness.run(name) { harness in
            let session = try await harness.signIn()
            let idToken = try #require(session.idToken)
            let request = try await harness.client.prepareEndSession()
            let components = try #require(URLComponents(url: request.url, resolvingAgainstBaseURL: false))
            let query = Dictionary(
                (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first }
            )
            #expect(components.path.hasSuffix("/logout"), "\(request.url)")
            #expect(request.url.host == harness.simulator.issuer.host)
            #expect(query["id_token_hint"] == idToken)
            #expect(query["client_id"] == harness.simulator.configurationValues["clientID"])
            #expect(query["state"] == request.state)
            #expect(query["post_logout_redirect_uri"] == nil)
            #expect(await harness.client.cachedSession == nil)
        }
    }
}
