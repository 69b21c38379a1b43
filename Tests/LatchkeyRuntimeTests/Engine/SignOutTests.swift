import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

@Suite("Engine: sign-out")
struct EngineSignOutTests {
    @Test("sends the current access token and scope, clears the store and publishes signedOut")
    func signOut() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        try await harness.signIn()
        try await harness.client.signOut(scope: "global")
        let request = try #require(harness.requests("/logout").first)
        #expect(request.method == "POST")
        #expect(request.query("scope") == "global")
        #expect(request.header("Authorization") == "Bearer at-1")
        #expect(request.header("apikey") == "pk_live_123")
        #expect(harness.client.state == .signedOut)
        #expect(try await harness.store.load(key: harness.client.storeKey) == nil)
    }

    @Test("an expired session is refreshed first, so the request carries a valid token")
    func refreshesFirst() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        try await harness.signIn()
        harness.clock.advance(4000)
        try await harness.client.signOut()
        #expect(harness.requests("/logout").first?.header("Authorization") == "Bearer at-2")
        #expect(harness.requests("/logout").first?.query("scope") == "local")
    }

    @Test("a failing sign-out request still signs out locally", arguments: [401, 500])
    func failureStillSignsOut(status: Int) async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        harness.backend.override("/logout") { _ in .json(["error": "nope"], status: status) }
        try await harness.signIn()
        try await harness.client.signOut()
        #expect(harness.requests("/logout").count == 1)
        #expect(harness.client.state == .signedOut)
        #expect(try await harness.store.load(key: harness.client.storeKey) == nil)
    }

    @Test("without a sign-out request it is local only: zero requests")
    func localOnly() async throws {
        let harness = try AcmeHarness(spec: AcmeSpec.make(signOutRequest: nil))
        defer { harness.server.stop() }
        try await harness.signIn()
        harness.server.resetRecording()
        try await harness.client.signOut()
        #expect(harness.server.requests.isEmpty)
        #expect(harness.client.state == .signedOut)
        await expectAuthError(.validationFailed) { try await harness.client.signOut(scope: "everywhere") }
    }
}
