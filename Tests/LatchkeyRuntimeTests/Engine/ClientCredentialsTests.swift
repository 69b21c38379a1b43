import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// A value shared with the server's `@Sendable` handler.
private final class ClientCredentialsBox<Value: Sendable>: Sendable {
    private let storage: Locked<Value>
    init(_ value: Value) { storage = Locked(value) }
    func withLock<T>(_ body: (inout Value) -> T) -> T { storage.withLock { body(&$0) } }
}

/// A token endpoint on 127.0.0.1 for the client credentials grant, answering from a script.
private final class ClientCredentialsServer: Sendable {
    let server: TestHTTPServer
    private let answers: ClientCredentialsBox<[TestResponse]>

    /// - Parameters:
    ///   - delay: How long each answer waits (to keep a request in flight).
    ///   - answers: The answers in order; the last one repeats.
    ///   - holdingFirst: Holds the first request's answer until the test releases it.
    init(delay: LatchkeyDuration = .zero, holdingFirst: HeldRoute? = nil, answers: [TestResponse]) throws {
        let script = ClientCredentialsBox(answers)
        let count = ClientCredentialsBox(0)
        self.answers = script
        server = try TestHTTPServer { request in
            guard request.method == "POST", request.path == "/token" else {
                return .json(["error": "nope"], status: 404)
            }
            if delay > .zero { try? await LatchkeyDuration.sleep(delay) }
            let number = count.withLock { value -> Int in
                value += 1
                return value
            }
            if number == 1, let holdingFirst {
                let answer = script.withLock { list in list.count > 1 ? list.removeFirst() : list[0] }
                await holdingFirst.hold()
                return answer
            }
            return script.withLock { list in list.count > 1 ? list.removeFirst() : list[0] }
        }
    }

    deinit { server.stop() }

    static func token(_ value: String, expiresIn: Int? = 3600, scope: String? = "read write") -> TestResponse {
        var document: [String: Any] = ["access_token": value, "token_type": "Bearer", "refresh_token": "rt-must-drop"]
        if let expiresIn { document["expires_in"] = expiresIn }
        if let scope { document["scope"] = scope }
        return .json(document)
    }
}

/// A client for a provider with only a client credentials flow.
private struct ClientCredentialsHarness {
    let provider: ClientCredentialsServer
    let clock = MutableClock()
    let store = InMemorySessionStore()
    let client: AuthClient

    init(
        _ provider: ClientCredentialsServer, authentication: RequestSpec.ClientAuthentication = .basic,
        secret: String? = "s3cr/t+x:y"
    ) throws {
        self.provider = provider
        let spec = ProviderSpec(
            name: "svc", displayName: "Service",
            inputs: [InputSpec(name: "baseURL", kind: .url, trimsTrailingSlash: true), InputSpec(name: "clientID")],
            requests: [
                "token": RequestSpec(
                    method: "POST", url: "{baseURL}/token", encoding: .form,
                    body: [
                        ParameterSpec("grant_type", .string("client_credentials")),
                        ParameterSpec("scope", .string("{scope}")),
                    ],
                    clientAuthentication: authentication, response: .session)
            ],
            flows: FlowSet(
                clientCredentials: ClientCredentialsFlowSpec(request: "token", defaultScopes: ["read", "write"])))
        let clock = self.clock
        client = try AuthClient(
            provider: spec,
            configuration: ProviderConfiguration(
                values: ["baseURL": provider.server.baseURL.absoluteString, "clientID": "svc tool"],
                clientSecret: secret),
            options: AuthClientOptions(
                transport: URLSessionHTTPTransport(), store: store, now: { clock.now }, refreshLeeway: .seconds(60),
                userAgent: "LatchkeyTests/1", environment: { _ in nil }))
    }

    var requests: [RecordedRequest] { provider.server.requests }
}

@Suite("Engine: client credentials grant")
struct ClientCredentialsTests {
    @Test("basic authentication: exact header and body; a typed token with expiry; no refresh token, no session")
    func basic() async throws {
        let provider = try ClientCredentialsServer(answers: [ClientCredentialsServer.token("cc-at-1")])
        let live = try ClientCredentialsHarness(provider)
        let token = try await live.client.clientCredentialsToken()
        #expect(token.accessToken == "cc-at-1")
        #expect(token.tokenType == "Bearer")
        #expect(token.expiresAt == live.clock.now.addingTimeInterval(3600))
        #expect(token.scopes == ["read", "write"])
        let request = try #require(live.requests.first)
        #expect(live.requests.count == 1)
        #expect(request.method == "POST")
        #expect(request.path == "/token")
        // RFC 6749 §2.3.1: id and secret form-encoded, then Base64 of "id:secret".
        let expected = Data("svc%20tool:s3cr%2Ft%2Bx%3Ay".utf8).base64EncodedString()
        #expect(request.header("Authorization") == "Basic " + expected)
        #expect(request.header("Content-Type") == "application/x-www-form-urlencoded")
        #expect(request.header("Accept") == "application/json")
        #expect(request.bodyText == "grant_type=client_credentials&scope=read%20write")
        #expect(request.formBody["client_secret"] == nil)
        // The token is the client's, not a user's: nothing stored, no session, still signed out.
        #expect(await live.client.cachedSession == nil)
        #expect(live.store.keys.isEmpty)
        #expect(!String(describing: token).contains("cc-at-1"))
        #expect(!String(reflecting: token).contains("cc-at-1"))
    }

    @Test("post authentication puts client_id and client_secret in the body; scopes as asked")
    func post() async throws {
        let provider = try ClientCredentialsServer(answers: [ClientCredentialsServer.token("cc-at-2", scope: nil)])
        let harness = try ClientCredentialsHarness(provider, authentication: .post)
        let token = try await harness.client.clientCredentialsToken(scopes: ["read"])
        #expect(token.scopes == ["read"])
        let request = try #require(harness.requests.first)
        #expect(request.header("Authorization") == nil)
        #expect(
            request.bodyText
                == "grant_type=client_credentials&scope=read&client_id=svc%20tool&client_secret=s3cr%2Ft%2Bx%3Ay")
    }

    @Test("cached until shortly before expiry: no second request meanwhile; then exactly one")
    func cached() async throws {
        let provider = try ClientCredentialsServer(answers: [
            ClientCredentialsServer.token("cc-at-1"), ClientCredentialsServer.token("cc-at-2"),
            ClientCredentialsServer.token("cc-at-3"),
        ])
        let harness = try ClientCredentialsHarness(provider)
        #expect(try await harness.client.clientCredentialsToken().accessToken == "cc-at-1")
        harness.clock.advance(3600 - 61)
        #expect(try await harness.client.clientCredentialsToken().accessToken == "cc-at-1")
        #expect(harness.requests.count == 1, "a fresh cached token needs no request")
        harness.clock.advance(2)
        #expect(try await harness.client.clientCredentialsToken().accessToken == "cc-at-2")
        #expect(harness.requests.count == 2)
        #expect(try await harness.client.clientCredentialsToken(forceRefresh: true).accessToken == "cc-at-3")
        #expect(harness.requests.count == 3)
    }

    @Test("other scopes are another cache entry; a token without expiry is not reused")
    func cacheKeys() async throws {
        let provider = try ClientCredentialsServer(answers: [
            ClientCredentialsServer.token("cc-a"), ClientCredentialsServer.token("cc-b", expiresIn: nil),
            ClientCredentialsServer.token("cc-c", expiresIn: nil),
        ])
        let harness = try ClientCredentialsHarness(provider)
        #expect(try await harness.client.clientCredentialsToken().accessToken == "cc-a")
        #expect(try await harness.client.clientCredentialsToken(scopes: ["admin"]).accessToken == "cc-b")
        #expect(try await harness.client.clientCredentialsToken(scopes: ["admin"]).accessToken == "cc-c")
        #expect(try await harness.client.clientCredentialsToken().accessToken == "cc-a")
        #expect(harness.requests.map { $0.formBody["scope"] ?? "-" } == ["read write", "admin", "admin"])
    }

    @Test("concurrent callers share one request in flight")
    func singleFlight() async throws {
        let provider = try ClientCredentialsServer(
            delay: .milliseconds(300), answers: [ClientCredentialsServer.token("cc-shared")])
        let harness = try ClientCredentialsHarness(provider)
        let client = harness.client
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<8 { group.addTask { try await client.clientCredentialsToken().accessToken } }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(tokens == Array(repeating: "cc-shared", count: 8))
        #expect(harness.requests.count == 1)
    }

    @Test("a discard while a request is in flight: its token is neither cached nor returned")
    func discardDuringFlight() async throws {
        let held = HeldRoute()
        let provider = try ClientCredentialsServer(
            holdingFirst: held,
            answers: [ClientCredentialsServer.token("cc-before-discard"), ClientCredentialsServer.token("cc-after")])
        let harness = try ClientCredentialsHarness(provider)
        let client = harness.client
        let waiting = Task { try await client.clientCredentialsToken().accessToken }
        await held.arrived()
        await client.discardClientCredentialsTokens()
        held.release()
        #expect(try await waiting.value == "cc-after")
        #expect(try await client.clientCredentialsToken().accessToken == "cc-after")
        #expect(harness.requests.count == 2, "one request before the discard, one after; then the cache")
    }

    @Test("errors are mapped, never cached, and carry no secret")
    func errors() async throws {
        let provider = try ClientCredentialsServer(answers: [
            .json(["error": "invalid_client", "error_description": "bad secret"], status: 401),
            .json(["error": "invalid_scope"], status: 400),
            .json(["error": "temporarily_unavailable"], status: 503),
            ClientCredentialsServer.token("cc-ok"),
        ])
        let harness = try ClientCredentialsHarness(provider)
        var error = await #expect(throws: AuthError.self) { try await harness.client.clientCredentialsToken() }
        #expect(error?.code == "invalid_client")
        #expect(error?.kind == .misconfigured)
        #expect(error?.status == 401)
        #expect(!(error.map { String(describing: $0) } ?? "").contains("s3cr"))
        error = await #expect(throws: AuthError.self) { try await harness.client.clientCredentialsToken() }
        #expect(error?.code == "invalid_scope")
        error = await #expect(throws: AuthError.self) { try await harness.client.clientCredentialsToken() }
        #expect(error?.code == .serverError)
        #expect(error?.kind == .transport)
        #expect(try await harness.client.clientCredentialsToken().accessToken == "cc-ok")
        #expect(harness.requests.count == 4)
    }

    @Test("without a secret or without the flow: invalid_configuration and no request")
    func misconfigured() async throws {
        let provider = try ClientCredentialsServer(answers: [ClientCredentialsServer.token("never")])
        let harness = try ClientCredentialsHarness(provider, secret: nil)
        await expectAuthError(.invalidConfiguration) { _ = try await harness.client.clientCredentialsToken() }
        let other = try AuthClient(
            provider: AcmeSpec.make(),
            configuration: ProviderConfiguration(
                values: ["baseURL": provider.server.baseURL.absoluteString, "clientID": "x", "apiKey": "pk"]),
            options: AuthClientOptions(store: InMemorySessionStore(), environment: { _ in nil }))
        await expectAuthError(.invalidConfiguration) { _ = try await other.clientCredentialsToken() }
        #expect(provider.server.requests.isEmpty)
    }
}
