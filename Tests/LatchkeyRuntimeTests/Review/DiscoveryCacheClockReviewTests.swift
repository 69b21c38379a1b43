import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

@Suite("Review: a stored discovery document never outlives the longest lifetime")
struct DiscoveryCacheClockReviewTests {
    private static let spec = ProviderSpec(
        name: "op", displayName: "OP", inputs: [InputSpec(name: "issuer", kind: .url)],
        discovery: .openID(issuer: "{issuer}"))

    @Test("a record written while the clock ran a year ahead is fetched again once the clock is corrected")
    func clockCorrectedBackwards() async throws {
        let server = try TestHTTPServer { request in
            let base = "http://" + (request.header("Host") ?? "127.0.0.1")
            guard request.path == "/.well-known/openid-configuration" else { return .json([:], status: 404) }
            return .json(["issuer": base, "token_endpoint": base + "/token"])
        }
        defer { server.stop() }
        let store = InMemorySessionStore()
        let clock = MutableClock()
        func client() throws -> AuthClient {
            try AuthClient(
                provider: Self.spec,
                configuration: ProviderConfiguration(values: ["issuer": server.baseURL.absoluteString]),
                options: AuthClientOptions(
                    transport: URLSessionHTTPTransport(), store: store, now: { clock.now }, environment: { _ in nil }))
        }
        var discoveryRequests: Int { server.requests.filter { $0.path == "/.well-known/openid-configuration" }.count }
        let year = 365 * 86_400.0
        clock.advance(year)
        _ = try await client().discover()
        #expect(discoveryRequests == 1)
        // The clock is set right: the record's expiry now lies a year and a day ahead.
        clock.advance(-year)
        _ = try await client().discover()
        #expect(discoveryRequests == 2, "a record kept longer than 7 days was used")
        // The record rewritten under the right clock is used again as usual.
        _ = try await client().discover()
        #expect(discoveryRequests == 2)
    }
}
