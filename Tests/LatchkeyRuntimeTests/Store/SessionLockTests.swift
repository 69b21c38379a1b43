import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// Sign-in and sign-out write the store under the refresh lock, so that another process's refresh of the previous
/// session cannot overwrite them; a client's own refresh in flight never makes them wait.
@Suite("Store: sign-in and sign-out under the refresh lock", timeLimit(minutes: 1))
struct SessionLockTests {
    /// A harness over a file store in a fresh directory, that store, and the clock its refresh lock polls on
    /// (moved by hand: a waiter on the lock sleeps on it until the test advances it).
    private func fileHarness() throws -> (AcmeHarness, FileSessionStore, ManualClock, ScratchDirectory) {
        let scratch = ScratchDirectory("session-lock")
        let lockClock = ManualClock()
        let store = FileSessionStore(directory: scratch.child("store"), clock: lockClock)
        return (try AcmeHarness(store: store), store, lockClock, scratch)
    }

    @Test("a sign-in waits for another holder of the refresh lock before storing its session")
    func signInWaitsForTheLock() async throws {
        let (harness, store, lockClock, scratch) = try fileHarness()
        defer {
            harness.server.stop()
            scratch.remove()
        }
        let client = harness.client
        let server = harness.server
        let (signIn, storedWhileLocked) = try await store.withExclusiveRefresh(key: harness.client.storeKey) {
            () async throws(AuthError) -> (Task<Session, any Error>, Bool) in
            let ended = Gate()
            let signIn = Task {
                defer { ended.raise() }
                return try await client.signIn(username: "ada@example.com", password: "hunter2")
            }
            // The sign-in has its tokens and polls for the lock: it sleeps on the lock's clock (a sign-in that
            // ignored the lock ends instead, and the checks below fail).
            _ = await firstOf({ await lockClock.sleepers(atLeast: 1) }, { await ended.wait() })
            return (signIn, (try? await store.load(key: harness.client.storeKey)) != nil)
        }
        #expect(storedWhileLocked == false)
        #expect(server.requests.map(\.path) == ["/token"])
        // The lock is free: the sign-in's next poll takes it.
        lockClock.advance(by: .seconds(1))
        _ = try await signIn.value
        #expect(try await harness.storedSession()?["accessToken"] as? String == "at-1")
        #expect(client.state.isSignedIn)
    }

    @Test("a sign-out is signed out at once, and removes the record once the lock is free")
    func signOutRemovesUnderTheLock() async throws {
        let (harness, store, lockClock, scratch) = try fileHarness()
        defer {
            harness.server.stop()
            scratch.remove()
        }
        try await harness.signIn()
        let client = harness.client
        let (signOut, signedOutWhileLocked, storedWhileLocked) = try await store.withExclusiveRefresh(
            key: harness.client.storeKey
        ) { () async throws(AuthError) -> (Task<Void, any Error>, Bool, Bool) in
            let ended = Gate()
            let signOut = Task {
                defer { ended.raise() }
                try await client.signOut()
            }
            // The sign-out polls for the lock to remove the record: it sleeps on the lock's clock (a sign-out
            // that ignored the lock ends instead, and the checks below fail).
            _ = await firstOf({ await lockClock.sleepers(atLeast: 1) }, { await ended.wait() })
            return (
                signOut, client.state == .signedOut, (try? await store.load(key: harness.client.storeKey)) != nil
            )
        }
        #expect(signedOutWhileLocked)
        #expect(storedWhileLocked)
        // The lock is free: the sign-out's next poll takes it and removes the record.
        lockClock.advance(by: .seconds(1))
        try await signOut.value
        #expect(try await store.load(key: harness.client.storeKey) == nil)
        #expect(client.state == .signedOut)
    }

    @Test("a sign-out racing this client's own slow refresh does not wait for that refresh")
    func signOutDoesNotWaitForOwnRefresh() async throws {
        let (harness, store, _, scratch) = try fileHarness()
        defer {
            harness.server.stop()
            scratch.remove()
        }
        try await harness.signIn()
        // The refresh holds the lock until the server answers, which it does only once the sign-out returned:
        // a sign-out that waited for the lock would never return (and the time limit fails the test).
        harness.backend.holdRefreshes()
        defer { harness.backend.releaseRefreshes() }
        let client = harness.client
        let refreshEnded = Locked(false)
        let refresh = Task {
            _ = try? await client.currentSession(forceRefresh: true)
            refreshEnded.withLock { $0 = true }
        }
        await harness.backend.refreshesArrived(atLeast: 1)
        try await client.signOut()
        #expect(refreshEnded.withLock { $0 } == false, "the sign-out waited for the refresh")
        #expect(try await store.load(key: harness.client.storeKey) == nil)
        #expect(client.state == .signedOut)
        #expect(harness.requests("/logout").count == 1)
        refresh.cancel()
    }
}
