import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// A value shared with the server's `@Sendable` handler.
private final class DiscoveryCacheBox<Value: Sendable>: Sendable {
    private let storage: Locked<Value>
    init(_ value: Value) { storage = Locked(value) }
    func withLock<T>(_ body: (inout Value) -> T) -> T { storage.withLock { body(&$0) } }
}

/// An OpenID discovery endpoint on 127.0.0.1 whose `Cache-Control` and issuer a test sets.
private final class DiscoveryServer: Sendable {
    let server: TestHTTPServer
    let cacheControl: DiscoveryCacheBox<String?>

    init(cacheControl: String? = nil) throws {
        let header = DiscoveryCacheBox(cacheControl)
        self.cacheControl = header
        server = try TestHTTPServer { request in
            let base = "http://" + (request.header("Host") ?? "127.0.0.1")
            guard request.path == "/.well-known/openid-configuration" else { return .json([:], status: 404) }
            var response = TestResponse.json([
                "issuer": base, "authorization_endpoint": base + "/authorize", "token_endpoint": base + "/token",
            ])
            if let value = header.withLock({ $0 }) { response.headers.append(("Cache-Control", value)) }
            return response
        }
    }

    deinit { server.stop() }

    var issuer: String { server.baseURL.absoluteString }
    var discoveryRequests: Int { server.requests.filter { $0.path == "/.well-known/openid-configuration" }.count }
}

/// Clients of one provider sharing a store and a clock: each `client()` is a relaunch.
private struct DiscoveryCacheHarness {
    let provider: DiscoveryServer
    let store = InMemorySessionStore()
    let clock = MutableClock()

    static let spec = ProviderSpec(
        name: "op", displayName: "OP", inputs: [InputSpec(name: "issuer", kind: .url)],
        discovery: .openID(issuer: "{issuer}"))

    func client(issuer: String? = nil) throws -> AuthClient {
        let clock = self.clock
        return try AuthClient(
            provider: Self.spec,
            configuration: ProviderConfiguration(values: ["issuer": issuer ?? provider.issuer]),
            options: AuthClientOptions(
                transport: URLSessionHTTPTransport(), store: store, now: { clock.now }, environment: { _ in nil }))
    }

    /// The store key of the discovery record (exactly one is expected).
    func recordKey() throws -> String {
        let keys = store.keys.filter { $0.hasPrefix("op.") && $0.contains(".discovery.") }
        try #require(keys.count == 1, "discovery records: \(store.keys)")
        return keys[0]
    }

    func record() async throws -> [String: Any] {
        let data = try #require(try await store.load(key: try recordKey()))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}

@Suite("Engine: discovery cached in the store with a lifetime")
struct DiscoveryCacheTests {
    @Test("a second client over the same store sends no discovery request; after 24 h exactly one")
    func relaunch() async throws {
        let harness = DiscoveryCacheHarness(provider: try DiscoveryServer())
        let first = try await harness.client().discover()
        #expect(harness.provider.discoveryRequests == 1)
        let record = try await harness.record()
        #expect(record["version"] as? Int == 2)
        #expect(record["issuer"] as? String == harness.provider.issuer)
        #expect(record["expiresAt"] as? Double == harness.clock.now.timeIntervalSince1970 + 86_400)

        harness.clock.advance(86_400 - 1)
        let second = try await harness.client().discover()
        #expect(second == first)
        #expect(harness.provider.discoveryRequests == 1, "a fresh stored document needs no request")

        harness.clock.advance(2)
        let third = try harness.client()
        _ = try await third.discover()
        _ = try await third.discover()
        #expect(harness.provider.discoveryRequests == 2, "a stale document is fetched once again")
    }

    @Test("a client refetches in memory too once its document is stale")
    func inMemoryLifetime() async throws {
        let harness = DiscoveryCacheHarness(provider: try DiscoveryServer(cacheControl: "public, max-age=60"))
        let client = try harness.client()
        _ = try await client.discover()
        harness.clock.advance(59)
        _ = try await client.discover()
        #expect(harness.provider.discoveryRequests == 1)
        harness.clock.advance(2)
        _ = try await client.discover()
        #expect(harness.provider.discoveryRequests == 2)
    }

    @Test("Cache-Control max-age sets the stored lifetime; no-store keeps nothing in the store")
    func cacheControl() async throws {
        let harness = DiscoveryCacheHarness(provider: try DiscoveryServer(cacheControl: "max-age=600"))
        _ = try await harness.client().discover()
        #expect(try await harness.record()["expiresAt"] as? Double == harness.clock.now.timeIntervalSince1970 + 600)
        harness.clock.advance(601)
        _ = try await harness.client().discover()
        #expect(harness.provider.discoveryRequests == 2)

        let noStore = DiscoveryCacheHarness(provider: try DiscoveryServer(cacheControl: "no-store"))
        _ = try await noStore.client().discover()
        #expect(noStore.store.keys.isEmpty)
        _ = try await noStore.client().discover()
        #expect(noStore.provider.discoveryRequests == 2)
    }

    @Test("a corrupt record is ignored, fetched again and rewritten")
    func corrupt() async throws {
        let harness = DiscoveryCacheHarness(provider: try DiscoveryServer())
        _ = try await harness.client().discover()
        let key = try harness.recordKey()
        for garbage in [Data("not json".utf8), Data("{\"version\": 1}".utf8), Data("{\"version\": 99}".utf8)] {
            try await harness.store.save(garbage, key: key)
            let values = try await harness.client().discover()
            #expect(values["token_endpoint"] == harness.provider.issuer + "/token")
            #expect(try await harness.record()["version"] as? Int == 2)
        }
        #expect(harness.provider.discoveryRequests == 4)
    }

    @Test("the issuer is still checked: a record naming another issuer is not used")
    func issuerChecked() async throws {
        let harness = DiscoveryCacheHarness(provider: try DiscoveryServer())
        _ = try await harness.client().discover()
        let key = try harness.recordKey()
        var record = try await harness.record()
        var document = try #require(record["document"] as? [String: Any])
        document["issuer"] = "https://evil.example"
        document["token_endpoint"] = "https://evil.example/token"
        record["document"] = document
        try await harness.store.save(try JSONSerialization.data(withJSONObject: record), key: key)
        let values = try await harness.client().discover()
        #expect(values["token_endpoint"] == harness.provider.issuer + "/token")
        #expect(harness.provider.discoveryRequests == 2)
        // Another issuer has its own record: nothing is shared between issuers.
        let other = try DiscoveryServer()
        let otherHarness = DiscoveryCacheHarness(provider: other)
        _ = try await otherHarness.client().discover()
        #expect(otherHarness.store.keys != harness.store.keys)
    }
}
