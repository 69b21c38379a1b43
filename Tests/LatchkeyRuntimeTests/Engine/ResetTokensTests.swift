import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

@Suite("Engine: resetTokens forgets the session with no request")
struct ResetTokensTests {
    @Test("an expired, signed-in session is forgotten with zero requests: no refresh, no sign-out, no revocation")
    func sendsNothing() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        try await harness.signIn()
        // Expired: signOut() would refresh first and then send the sign-out request.
        harness.clock.advance(4000)
        harness.server.resetRecording()
        try await harness.client.resetTokens()
        #expect(harness.server.requests.isEmpty, "\(harness.server.requests.map(\.path))")
        #expect(harness.client.state == .signedOut)
        #expect(await harness.client.cachedSession == nil)
        #expect(try await harness.store.load(key: harness.client.storeKey) == nil)
        let relaunched = try harness.makeClient()
        #expect(await relaunched.restore() == .signedOut)
        #expect(harness.server.requests.isEmpty)
    }

    @Test("signOut() keeps ending the session at the provider; resetTokens() never does")
    func bothKept() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        try await harness.signIn()
        try await harness.client.resetTokens()
        #expect(harness.requests("/logout").isEmpty)
        try await harness.signIn()
        try await harness.client.signOut()
        #expect(harness.requests("/logout").count == 1)
    }

    @Test("a refresh answering after the reset does not bring the session back, in memory or in the store")
    func fencesRefreshInFlight() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        try await harness.signIn()
        let tokens = harness.client.observeTokens()
        let held = HeldRoute()
        let backend = harness.backend
        backend.override("/oauth/token") { _ in
            await held.hold()
            return backend.tokens(rotating: "rt-1")
        }
        let client = harness.client
        let refresh = Task { try await client.currentSession(forceRefresh: true) }
        await held.arrived()
        try await client.resetTokens()
        #expect(client.state == .signedOut)
        held.release()
        let result = await refresh.result
        #expect((try? result.get()) == nil, "the late refresh handed out a session")
        #expect(client.state == .signedOut)
        #expect(await client.cachedSession == nil)
        #expect(try await harness.store.load(key: client.storeKey) == nil)
        #expect(harness.refreshRequests.count == 1)
        #expect(harness.requests("/logout").isEmpty)
        // The token stream ended on nil: the refreshed session (at-2) is never yielded after it.
        var iterator = tokens.makeAsyncIterator()
        #expect(await iterator.next() == .some(nil))
        backend.override("/oauth/token") { _ in backend.tokens(rotating: nil) }
        try await harness.signIn()
        #expect(await iterator.next()??.accessToken == "at-3")
        // A relaunch finds nothing of the fenced refresh either.
        let relaunched = try harness.makeClient()
        #expect(await relaunched.restore().user?.id == "user-1")
        #expect(try await relaunched.validAccessToken() == "at-3")
    }
}
