import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Synchronization
import Testing

/// Sign-in and sign-out write the store under the refresh lock, so that another process's refresh of the previous
/// session cannot overwrite them; a client's own refresh in flight never makes them wait.
@Suite("Store: sign-in and sign-out under the refresh lock")
struct SessionLockTests {
    /// A harness over a file store in a fresh directory, and that store.
    private func fileHarness() throws -> (AcmeHarness, FileSessionStore, ScratchDirectory) {
        let scratch = ScratchDirectory("session-lock")
        let store = FileSessionStore(directory: scratch.child("store"))
        return (try AcmeHarness(store: store), store, scratch)
    }

    @Test("a sign-in waits for another holder of the refresh lock before storing its session")
    func signInWaitsForTheLock() async throws {
        let (harness, store, scratch) = try fileHarness()
        defer {
            harness.server.stop()
            scratch.remove()
        }
        let client = harness.client
        let server = harness.server
        let storedWhileLocked = try await store.withExclusiveRefresh(key: harness.client.storeKey) {
            () async throws(AuthError) -> Bool in
            Task { try await client.signIn(username: "ada@example.com", password: "hunter2") }
            for _ in 0..<12_000 where !server.requests.contains(where: { $0.path == "/token" }) {
                try? await Task.sleep(for: .milliseconds(5))
            }
            try? await Task.sleep(for: .milliseconds(300))
            return (try? await store.load(key: harness.client.storeKey)) != nil
        }
        #expect(storedWhileLocked == false)
        #expect(server.requests.map(\.path) == ["/token"])
        for _ in 0..<6000 where try await store.load(key: harness.client.storeKey) == nil {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(try await harness.storedSession()?["accessToken"] as? String == "at-1")
        #expect(client.state.isSignedIn)
    }

    @Test("a sign-out is signed out at once, and removes the record once the lock is free")
    func signOutRemovesUnderTheLock() async throws {
        let (harness, store, scratch) = try fileHarness()
        defer {
            harness.server.stop()
            scratch.remove()
        }
        try await harness.signIn()
        let client = harness.client
        let storedWhileLocked = try await store.withExclusiveRefresh(key: harness.client.storeKey) {
            () async throws(AuthError) -> Bool in
            Task { try await client.signOut() }
            for _ in 0..<12_000 where client.state != .signedOut { try? await Task.sleep(for: .milliseconds(5)) }
            try? await Task.sleep(for: .milliseconds(200))
            return (try? await store.load(key: harness.client.storeKey)) != nil
        }
        #expect(storedWhileLocked)
        for _ in 0..<6000 where try await store.load(key: harness.client.storeKey) != nil {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(try await store.load(key: harness.client.storeKey) == nil)
        #expect(client.state == .signedOut)
    }

    @Test("a sign-out racing this client's own slow refresh does not wait for that refresh")
    func signOutDoesNotWaitForOwnRefresh() async throws {
        let (harness, store, scratch) = try fileHarness()
        defer {
            harness.server.stop()
            scratch.remove()
        }
        try await harness.signIn()
        // The refresh holds the lock until the server answers, 30 s from now: a sign-out that waited for the
        // lock would still be waiting when the test checks.
        harness.backend.setRefreshDelay(30)
        let client = harness.client
        let refreshEnded = Mutex(false)
        let refresh = Task {
            _ = try? await client.currentSession(forceRefresh: true)
            refreshEnded.withLock { $0 = true }
        }
        while harness.refreshRequests.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        try await client.signOut()
        #expect(refreshEnded.withLock { $0 } == false, "the sign-out waited for the refresh")
        #expect(try await store.load(key: harness.client.storeKey) == nil)
        #expect(client.state == .signedOut)
        #expect(harness.requests("/logout").count == 1)
        refresh.cancel()
    }
}
