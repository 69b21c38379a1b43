import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// A caller that is cancelled while its sign-in or refresh is being stored never reaches the store write: the
/// write runs in a task of its own (the refresh flight's, or the store operation's), so a store that honours
/// cancellation still stores the rotated tokens, and the callers that share the refresh get its result.
@Suite("Engine: a cancelled caller does not cancel a store write", timeLimit(minutes: 1))
struct CancelledCallerTests {
    @Test("a sign-in cancelled while its session is stored: stored anyway, in a task that is not cancelled")
    func signInCancelledDuringCommit() async throws {
        let store = SlowStore()
        let harness = try AcmeHarness(store: store)
        defer { harness.server.stop() }
        let release = Gate()
        store.holdSaves(until: release)
        let client = harness.client
        let signIn = Task { try await client.signIn(username: "ada@example.com", password: "hunter2") }
        await store.waitForSavesStarted(moreThan: 0)
        signIn.cancel()
        release.raise()
        let session = try await signIn.value
        #expect(session.accessToken == "at-1")
        #expect(store.savesInCancelledTasks == 0)
        #expect(try await harness.storedSession()?["refreshToken"] as? String == "rt-1")
    }

    @Test("the caller that started a refresh is cancelled while it is stored: stored, and every caller gets it")
    func refreshCallerCancelledDuringCommit() async throws {
        let store = SlowStore()
        let harness = try AcmeHarness(store: store)
        defer { harness.server.stop() }
        try await harness.signIn()
        harness.clock.advance(3600 + 1)
        let release = Gate()
        store.holdSaves(until: release)
        let savesBefore = store.savesStarted
        let client = harness.client
        let first = Task { try await client.validAccessToken() }
        await store.waitForSavesStarted(moreThan: savesBefore)
        first.cancel()
        release.raise()
        #expect(try await first.value == "at-2")
        #expect(try await client.validAccessToken() == "at-2")
        #expect(store.savesInCancelledTasks == 0)
        #expect(try await harness.storedSession()?["refreshToken"] as? String == "rt-2")
        #expect(harness.refreshRequests.count == 1)
    }
}
