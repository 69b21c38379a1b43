import Foundation
import LatchkeyRuntime
import LatchkeyTesting
import Testing

@Suite("State: observeTokens yields every change of the tokens")
struct ObserveTokensTests {
    @Test("nothing before restore; then nil, the sign-in, every refresh (the state does not change), nil at sign-out")
    func everyChange() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        var tokens = harness.client.observeTokens().makeAsyncIterator()
        var states = harness.client.stateUpdates().makeAsyncIterator()
        #expect(await states.next() == .loading)
        await harness.client.restore()
        #expect(await tokens.next() == .some(nil))
        try await harness.signIn()
        #expect(await tokens.next()??.accessToken == "at-1")
        _ = try await harness.client.currentSession(forceRefresh: true)
        #expect(await tokens.next()??.accessToken == "at-2")
        harness.clock.advance(4000)
        #expect(try await harness.client.validAccessToken() == "at-3")
        #expect(await tokens.next()??.refreshToken == "rt-3")
        try await harness.client.signOut()
        #expect(await tokens.next() == .some(nil))
        // The refreshes changed no state: signedOut, authenticating, signedIn once, signedOut.
        #expect(await states.next() == .signedOut)
        #expect(await states.next() == .authenticating)
        #expect(await states.next()?.user?.id == "user-1")
        #expect(await states.next() == .signedOut)
        #expect(harness.refreshRequests.count == 2)
    }

    @Test("a late subscriber gets the current session first; a slow one only the latest value, never a stale one")
    func latestOnly() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        try await harness.signIn()
        var late = harness.client.observeTokens().makeAsyncIterator()
        #expect(await late.next()??.accessToken == "at-1")
        let slow = harness.client.observeTokens()
        _ = try await harness.client.currentSession(forceRefresh: true)
        try await harness.client.signOut()
        var iterator = slow.makeAsyncIterator()
        #expect(await iterator.next() == .some(nil))
        #expect(await late.next() == .some(nil))
    }

    @Test("a refresh answering after a sign-out yields nothing after the nil")
    func noStaleValueAfterSignOut() async throws {
        let harness = try AcmeHarness(spec: AcmeSpec.make(signOutRequest: nil))
        defer { harness.server.stop() }
        try await harness.signIn()
        var tokens = harness.client.observeTokens().makeAsyncIterator()
        #expect(await tokens.next()??.accessToken == "at-1")
        let held = HeldRoute()
        let backend = harness.backend
        backend.override("/oauth/token") { _ in
            await held.hold()
            return backend.tokens(rotating: "rt-1")
        }
        let client = harness.client
        let refresh = Task { try await client.currentSession(forceRefresh: true) }
        await held.arrived()
        try await client.signOut()
        #expect(await tokens.next() == .some(nil))
        held.release()
        _ = await refresh.result
        backend.override("/oauth/token") { _ in backend.tokens(rotating: nil) }
        try await harness.signIn()
        // The next value is the new sign-in's (at-3), not the discarded refresh's (at-2).
        #expect(await tokens.next()??.accessToken == "at-3")
    }
}
