import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// The client's own nonce comparison, for a descriptor that does not validate ID tokens, against the provider
/// simulator's signed ID tokens (the runtime's own test, `BrowserFlowTests.nonceWithoutValidation`, uses a
/// scripted backend and an unsigned token).
@Suite("The client compares the nonce without ID-token validation (simulated OpenID provider)")
struct ClientNonceCheckTests {
    static let redirect = URL(string: "com.example.app:/oauth/callback")!

    /// The OpenID descriptor with ID-token validation turned off: only the client's comparison is left.
    static var unvalidatedSpec: ProviderSpec {
        var spec = OidcClient.provider
        spec.tokens.validatesIDToken = false
        return spec
    }

    @Test("an ID token carrying another nonce than the sign-in sent: invalid_id_token, no user request, nothing stored")
    func anotherNonceIsRefused() async throws {
        try await withSimulator(OidcClient.provider) { simulator in
            let store = InMemorySessionStore()
            let client = try AuthClient(
                provider: Self.unvalidatedSpec, configuration: simulator.configuration(redirectURI: Self.redirect),
                options: AuthClientOptions(transport: simulator.transport, store: store))
            let request = try await client.prepareAuthorization()
            let sent = try #require(request.nonce)
            // The user agent asks the provider with another nonce: the provider signs that one into the token.
            var components = try #require(URLComponents(url: request.url, resolvingAgainstBaseURL: false))
            components.queryItems = components.queryItems?.map {
                $0.name == "nonce" ? URLQueryItem(name: "nonce", value: "nonce-of-another-sign-in") : $0
            }
            let callback = try await simulator.browser.follow(try #require(components.url), until: Self.redirect)
            let before = simulator.requests.count
            await expectCode(.invalidIDToken) { _ = try await client.handleCallback(callback) }
            let after = Array(simulator.requests.dropFirst(before))
            #expect(after.map(\.method) == ["POST"], "only the code exchange: \(after.map(\.path))")
            #expect(!client.state.isSignedIn)
            #expect(try await store.load(key: client.storeKey) == nil)
            #expect(sent != "nonce-of-another-sign-in")
        }
    }

    @Test("the same descriptor and provider with the nonce left alone: signed in")
    func sameNonceSignsIn() async throws {
        try await withSimulator(OidcClient.provider) { simulator in
            let client = try AuthClient(
                provider: Self.unvalidatedSpec, configuration: simulator.configuration(redirectURI: Self.redirect),
                options: AuthClientOptions(transport: simulator.transport, store: InMemorySessionStore()))
            let request = try await client.prepareAuthorization()
            let callback = try await simulator.browser.follow(request.url, until: Self.redirect)
            let session = try await client.handleCallback(callback)
            #expect(client.state == .signedIn(session.userOrPlaceholder))
        }
    }
}
