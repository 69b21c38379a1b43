import Foundation
@_spi(Generated) import Latchkey
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
import Testing

/// The production issuer is the default: a client configured with its client key alone resolves its client
/// config from `https://authlayer.squareexp.com`. A transport that records and refuses every request keeps the
/// test off the network.
@Suite struct BaseIdPProductionIssuerTests {
    /// Records each request's URL and answers with a network error, without sending anything.
    final class RefusingTransport: HTTPTransport {
        private let urls = Locked<[URL]>([])

        var recorded: [URL] { urls.withLock { $0 } }

        func send(_ request: TransportRequest) async throws(AuthError) -> TransportResponse {
            urls.withLock { $0.append(request.url) }
            throw AuthError(.networkError, "Refused by the test transport.")
        }
    }

    @Test func withoutAnIssuerTheClientUsesTheProductionIssuer() async throws {
        let transport = RefusingTransport()
        let client = try BaseIdPClient(
            clientID: "pk_production_default", redirectURI: URL(string: "dev.example.app://auth-callback")!,
            options: AuthClientOptions(transport: transport, store: InMemorySessionStore(), environment: { _ in nil }))
        do {
            _ = try await client.prepareAuthorization()
            Issue.record("expected the refusing transport's error")
        } catch {
            #expect(error.kind == .transport || error.code == .configDiscoveryFailed, "\(error)")
        }
        let first = try #require(transport.recorded.first)
        #expect(first.scheme == "https")
        #expect(first.host == "authlayer.squareexp.com")
        #expect(first.path == "/v1/client-config")
        #expect(first.query == "key=pk_production_default")
    }

    @Test func theEnvironmentOverridesTheDefaultIssuer() async throws {
        let transport = RefusingTransport()
        let environment = ["BASE_IDP_ISSUER": "https://idp.staging.example/"]
        let client = try BaseIdPClient(
            clientID: "pk_staging", redirectURI: URL(string: "dev.example.app://auth-callback")!,
            options: AuthClientOptions(
                transport: transport, store: InMemorySessionStore(), environment: { environment[$0] }))
        _ = try? await client.prepareAuthorization()
        let first = try #require(transport.recorded.first)
        #expect(first.host == "idp.staging.example")
        #expect(first.path == "/v1/client-config")
    }
}
