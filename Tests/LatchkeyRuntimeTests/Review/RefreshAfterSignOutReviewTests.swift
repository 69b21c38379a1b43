import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// An in-memory store whose reads wait at a gate once armed, so a test can sign out while a refresh reads
/// the store again.
private final class GatedReadStore: SessionStore {
    private let inner = InMemorySessionStore()
    private let armed = Locked(false)
    private let waiting = Watched(0)
    let gate = Gate()

    /// Returns once a read waits at the gate (or the waiting task is cancelled).
    func readWaiting() async { await waiting.wait { $0 > 0 } }

    func arm() { armed.withLock { $0 = true } }

    func load(key: String) async throws(AuthError) -> Data? {
        if armed.withLock({ $0 }) {
            waiting.update { $0 += 1 }
            await gate.wait()
        }
        return try await inner.load(key: key)
    }

    func save(_ data: Data, key: String) async throws(AuthError) { try await inner.save(data, key: key) }

    func remove(key: String) async throws(AuthError) { try await inner.remove(key: key) }
}

@Suite("Review: no refresh request after a sign-out", timeLimit(minutes: 1))
struct RefreshAfterSignOutReviewTests {
    @Test("a refresh that was reading the store when the user signed out sends no refresh token")
    func signOutWhileRefreshReadsTheStore() async throws {
        let store = GatedReadStore()
        let harness = try AcmeHarness(store: store)
        defer { harness.server.stop() }
        try await harness.signIn()
        let client = harness.client
        store.arm()
        // An automatic (forced) refresh starts and reads the store again under the refresh lock.
        let refresh = Task { try await client.currentSession(forceRefresh: true) }
        await store.readWaiting()
        let states = client.stateUpdates()
        let signOut = Task { try await client.signOut() }
        for await state in states where state == .signedOut { break }
        store.gate.raise()
        _ = await refresh.result
        try await signOut.value
        #expect(harness.refreshRequests.isEmpty, "the old refresh token was sent after the sign-out")
        #expect(await client.cachedSession == nil)
        #expect(client.state == .signedOut)
    }
}
