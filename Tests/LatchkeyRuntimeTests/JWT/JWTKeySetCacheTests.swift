import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// The document and status a ``JWKSEndpoint`` serves.
final class JWKSDocument: Sendable {
    private let state: Locked<(status: Int, body: Data)>

    init(_ body: Data) {
        state = Locked((200, body))
    }

    var current: (status: Int, body: Data) { state.withLock { $0 } }

    func serve(_ body: Data, status: Int) {
        state.withLock { $0 = (status, body) }
    }
}

/// A JWKS endpoint on 127.0.0.1 whose document and status tests change, counting its requests.
final class JWKSEndpoint: Sendable {
    let document: JWKSDocument
    let server: TestHTTPServer
    let clock = JWTTestClock()
    let cache: JWKSCache

    init(_ body: Data = JWTFixtures.allKeysJWKS, minimumRefetchInterval: TimeInterval = 60) throws {
        let document = JWKSDocument(body)
        self.document = document
        self.server = try TestHTTPServer { request in
            guard request.path == "/jwks" else { return .text("not found", status: 404) }
            let (status, body) = document.current
            return TestResponse(status: status, headers: [("Content-Type", "application/json")], body: body)
        }
        let clock = self.clock
        self.cache = JWKSCache(
            url: server.url("/jwks"), transport: URLSessionHTTPTransport(),
            minimumRefetchInterval: minimumRefetchInterval,
            now: { clock.now })
    }

    func serve(_ body: Data, status: Int = 200) {
        document.serve(body, status: status)
    }

    var requestCount: Int { server.requests.filter { $0.path == "/jwks" }.count }

    /// A validator on the endpoint's clock.
    var validator: IDTokenValidator {
        let clock = self.clock
        return IDTokenValidator(issuer: JWTFixtures.issuer, clientID: JWTFixtures.clientID, now: { clock.now })
    }

    func validate(_ token: String) async throws -> IDTokenClaims {
        try await validator.validate(token, keys: cache, nonce: JWTFixtures.nonce)
    }

    deinit {
        server.stop()
    }
}

@Suite("JWKS cache against a real server")
struct JWTKeySetCacheTests {
    /// A token whose claims stay valid for a day on the endpoint's clock.
    static func token(algorithm: SignatureAlgorithm = .rs256, signer: TestSigner? = nil, kid: String?? = .none)
        -> String
    {
        JWTFixtures.token(
            JWTFixtures.claims(["exp": JWTFixtures.epoch + 86_400]), algorithm: algorithm, signer: signer, kid: kid)
    }

    @Test("one request on first use, none while cached")
    func firstUseThenCached() async throws {
        let endpoint = try JWKSEndpoint()
        #expect(endpoint.requestCount == 0)
        _ = try await endpoint.validate(Self.token())
        #expect(endpoint.requestCount == 1)
        let request = try #require(endpoint.server.requests.first)
        #expect(request.method == "GET")
        #expect(request.header("Accept") == "application/json")

        _ = try await endpoint.validate(Self.token())
        _ = try await endpoint.validate(Self.token(algorithm: .es256))
        _ = try await endpoint.validate(Self.token(algorithm: .edDSA, kid: JWTFixtures.noKid))
        endpoint.clock.advance(3000)
        _ = try await endpoint.validate(Self.token())
        #expect(endpoint.requestCount == 1)
        #expect(await endpoint.cache.fetchCount == 1)
    }

    @Test("unknown kids refetch within a budget per minute; a kid a refetch missed waits for the minute")
    func unknownKid() async throws {
        let endpoint = try JWKSEndpoint()
        _ = try await endpoint.validate(Self.token())
        #expect(endpoint.requestCount == 1)
        endpoint.clock.advance(61)

        let unknown = Self.token(kid: "unknown-kid")
        await expectJWTError(.invalidIDToken, "no key with kid “unknown-kid” in the JWKS", token: unknown) {
            _ = try await endpoint.validate(unknown)
        }
        #expect(endpoint.requestCount == 2)
        // The same kid again within the minute: no request.
        await expectJWTError(.invalidIDToken, "no key with kid", token: unknown) {
            _ = try await endpoint.validate(unknown)
        }
        #expect(endpoint.requestCount == 2)

        // An attacker sending made-up kids gets at most the budget of requests within the minute.
        for index in 0..<5 {
            let madeUp = Self.token(kid: "made-up-\(index)")
            await expectJWTError(.invalidIDToken, "no key with kid “made-up-\(index)”", token: madeUp) {
                _ = try await endpoint.validate(madeUp)
            }
            endpoint.clock.advance(10)
        }
        #expect(endpoint.requestCount == 1 + JWKSCache.defaultUnknownKeyRefetchBudget)

        endpoint.clock.advance(11)  // 61 s since the first refetch
        await expectJWTError(.invalidIDToken, "no key with kid", token: unknown) {
            _ = try await endpoint.validate(unknown)
        }
        #expect(endpoint.requestCount == 2 + JWKSCache.defaultUnknownKeyRefetchBudget)
    }

    @Test("a kid new since the last fetch refetches at once, even seconds after a fetch")
    func rotationRightAfterFetch() async throws {
        let rotated = try TestSigner(.p256)
        let endpoint = try JWKSEndpoint()
        _ = try await endpoint.validate(Self.token())
        endpoint.serve(JWTFixtures.jwks([rotated.publicJWK(keyID: "rotated")]))
        endpoint.clock.advance(2)
        let token = Self.token(algorithm: .es256, signer: rotated, kid: "rotated")
        #expect(try await endpoint.validate(token).sub == "user-1")
        #expect(endpoint.requestCount == 2)
    }

    @Test("a kid miss right after a fetch does not fetch again")
    func missRightAfterFetch() async throws {
        let endpoint = try JWKSEndpoint()
        let unknown = Self.token(kid: "unknown-kid")
        await expectJWTError(.invalidIDToken, "no key with kid", token: unknown) {
            _ = try await endpoint.validate(unknown)
        }
        #expect(endpoint.requestCount == 1)
    }

    @Test("concurrent unknown kids share one refetch, and all of them see its keys")
    func concurrentMisses() async throws {
        let rotated = try TestSigner(.p256)
        let endpoint = try JWKSEndpoint()
        _ = try await endpoint.validate(Self.token())
        endpoint.serve(JWTFixtures.jwks([JWTFixtures.rsa.publicJWK(keyID: "rsa-1"), rotated.publicJWK(keyID: "new")]))
        endpoint.clock.advance(61)
        let token = Self.token(algorithm: .es256, signer: rotated, kid: "new")
        let successes = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask { (try? await endpoint.validate(token)) != nil }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(successes == 8)
        #expect(endpoint.requestCount == 2)

        endpoint.clock.advance(61)
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask { _ = try? await endpoint.validate(Self.token(kid: "concurrent-\(index)")) }
            }
        }
        #expect(endpoint.requestCount == 3)
    }

    @Test("a rotated key is found by the refetch")
    func rotation() async throws {
        let rotated = try TestSigner(.rsa())
        let endpoint = try JWKSEndpoint(JWTFixtures.jwks([JWTFixtures.rsa.publicJWK(keyID: "old")]))
        _ = try await endpoint.validate(Self.token(kid: "old"))
        endpoint.serve(JWTFixtures.jwks([JWTFixtures.rsa.publicJWK(keyID: "old"), rotated.publicJWK(keyID: "new")]))
        endpoint.clock.advance(120)

        #expect(try await endpoint.validate(Self.token(signer: rotated, kid: "new")).sub == "user-1")
        #expect(endpoint.requestCount == 2)
        _ = try await endpoint.validate(Self.token(signer: rotated, kid: "new"))
        _ = try await endpoint.validate(Self.token(kid: "old"))
        #expect(endpoint.requestCount == 2)
    }

    @Test("a stale set is fetched again after the maximum age")
    func maximumAge() async throws {
        let endpoint = try JWKSEndpoint()
        _ = try await endpoint.validate(Self.token())
        endpoint.clock.advance(JWKSCache.defaultMaximumAge + 1)
        _ = try await endpoint.validate(Self.token())
        #expect(endpoint.requestCount == 2)
    }

    @Test("a refused alg is refused before any fetch")
    func refusedBeforeFetch() async throws {
        let endpoint = try JWKSEndpoint()
        let none =
            JWTFixtures.part(["alg": "none", "kid": "rsa-1"]) + "." + JWTFixtures.part(JWTFixtures.claims()) + "."
        await expectJWTError(.invalidIDToken, "always refused", token: none) { _ = try await endpoint.validate(none) }
        await expectJWTError(.invalidIDToken, "3 dot-separated parts") { _ = try await endpoint.validate("a.b") }
        #expect(endpoint.requestCount == 0)
    }

    @Test("fetch failures are reported and not cached")
    func failures() async throws {
        let endpoint = try JWKSEndpoint()
        endpoint.serve(Data("oops".utf8), status: 503)
        let token = Self.token()
        await expectJWTError(.serverError, "the JWKS endpoint answered HTTP 503") {
            _ = try await endpoint.validate(token)
        }
        endpoint.serve(Data("<html>".utf8))
        await expectJWTError(.invalidResponse, "the JWKS is not a JSON object") {
            _ = try await endpoint.validate(token)
        }
        endpoint.serve(JWTFixtures.allKeysJWKS)
        _ = try await endpoint.validate(token)
        #expect(endpoint.requestCount == 3)
    }

    @Test("refreshed tokens use the cache too")
    func refreshWithCache() async throws {
        let endpoint = try JWKSEndpoint()
        let previous = try await endpoint.validate(Self.token())
        let refreshed = JWTFixtures.token(
            JWTFixtures.claims(["exp": JWTFixtures.epoch + 86_400, "nonce": nil]), algorithm: .es256)
        let claims = try await endpoint.validator.validateRefreshed(
            newToken: refreshed, previousClaims: previous, keys: endpoint.cache)
        #expect(claims.sub == previous.sub)
        #expect(endpoint.requestCount == 1)
    }
}
