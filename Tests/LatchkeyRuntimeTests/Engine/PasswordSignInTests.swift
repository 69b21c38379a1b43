import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

@Suite("Engine: password sign-in on the wire")
struct EnginePasswordSignInTests {
    @Test("sends method, path, query, headers and a JSON body, then stores and publishes the session")
    func signInOnTheWire() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        let session = try await harness.signIn()

        #expect(session.accessToken == "at-1")
        #expect(session.refreshToken == "rt-1")
        #expect(session.user?.id == "user-1")
        #expect(session.expiresAt == harness.clock.now.addingTimeInterval(3600))
        let requests = harness.server.requests
        try #require(requests.count == 1)
        let request = requests[0]
        #expect(request.method == "POST")
        #expect(request.path == "/token")
        #expect(request.query("grant_type") == "password")
        #expect(request.header("apikey") == "pk_live_123")
        #expect(request.header("Content-Type") == "application/json")
        #expect(request.header("Accept") == "application/json")
        #expect(request.header("User-Agent") == "LatchkeyTests/1")
        #expect(request.header("Authorization") == nil)
        let body = try #require(request.jsonBody as? NSDictionary)
        let expected: NSDictionary = [
            "username": "ada@example.com", "password": "hunter2", "client_id": "acme-app",
            "meta": ["device": "swift-acme-app"],
        ]
        #expect(body == expected)
        #expect(harness.client.state == .signedIn(session.user!))
        let stored = try #require(try await harness.storedSession())
        #expect(stored["refreshToken"] as? String == "rt-1")
    }

    @Test("wrong password maps to invalid_credentials, kind rejected, and leaves the user signed out")
    func wrongPassword() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        await harness.client.restore()
        await #expect(throws: AuthError.self) { try await harness.client.signIn(username: "ada", password: "nope") }
        do {
            try await harness.client.signIn(username: "ada", password: "nope")
        } catch {
            #expect(error.code == .invalidCredentials)
            #expect(error.kind == .rejected)
            #expect(error.providerCode == "invalid_credentials")
            #expect(error.status == 400)
            #expect(!error.description.contains("nope"))
        }
        #expect(harness.client.state == .signedOut)
        #expect(try await harness.store.load(key: harness.client.storeKey) == nil)
    }

    @Test("a provider without a password flow refuses before any request")
    func noPasswordFlow() async throws {
        var spec = AcmeSpec.make()
        spec.flows.password = nil
        let harness = try AcmeHarness(spec: spec)
        defer { harness.server.stop() }
        do {
            try await harness.client.signIn(username: "ada", password: "hunter2")
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .invalidConfiguration)
        }
        #expect(harness.server.requests.isEmpty)
    }

    @Test("the state stream starts with the current value, then follows sign-in")
    func stateStream() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        await harness.client.restore()
        var iterator = harness.client.stateUpdates().makeAsyncIterator()
        #expect(await iterator.next() == .signedOut)
        try await harness.signIn()
        #expect(await iterator.next() == .authenticating)
        #expect(await iterator.next()?.user?.id == "user-1")
        var late = harness.client.stateUpdates().makeAsyncIterator()
        #expect(await late.next()?.user?.email == "ada@example.com")
    }
}
