import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The refresh lock of ``FileSessionStore``: exclusive across store instances and processes, released on
/// error and on a crash, bounded by its timeout.
@Suite("Reliability: the file store's refresh lock")
struct ReliabilityFileLockTests {
    @Test("holders of one key never overlap, across store instances; other keys do not wait", timeLimit(minutes: 1))
    func exclusion() async throws {
        let scratch = ScratchDirectory("lock")
        defer { scratch.remove() }
        // Each holder stays inside until all the others have tried and sleep on the manual clock.
        let clock = ManualClock()
        let stores = (0..<2).map { _ in
            FileSessionStore(directory: scratch.url, refreshLockTimeout: .seconds(3600), clock: clock)
        }
        let (most, entries) = try await ExclusionProbe(clock: clock, users: 40).run { index, body in
            try await stores[index % 2].withExclusiveRefresh(key: "acme") { await body() }
        }
        #expect(most == 1)
        #expect(entries == 40)

        let held = Gate()
        let release = Gate()
        let holder = Task {
            try await stores[0].withExclusiveRefresh(key: "acme") {
                held.raise()
                await release.wait()
            }
        }
        await held.wait()
        // A 1 ms timeout leaves room for one attempt only: it succeeds only if "other" is not held.
        let other = try await FileSessionStore(directory: scratch.url, refreshLockTimeout: .milliseconds(1))
            .withExclusiveRefresh(key: "other") { "done" }
        #expect(other == "done")
        release.raise()
        try await holder.value
    }

    @Test(
        "a holder past the timeout gives store_unavailable (transport); a throwing body releases the lock",
        timeLimit(minutes: 1))
    func timeoutAndRelease() async throws {
        let scratch = ScratchDirectory("lock")
        defer { scratch.remove() }
        // The waiter polls on a manual clock: the timeout is the clock's 60 s, not a wall-clock wait.
        let clock = ManualClock()
        let store = FileSessionStore(directory: scratch.url, refreshLockTimeout: .seconds(60), clock: clock)
        let held = Gate()
        let release = Gate()
        let holder = Task {
            try await FileSessionStore(directory: scratch.url).withExclusiveRefresh(key: "acme") {
                held.raise()
                await release.wait()
            }
        }
        await held.wait()
        let waiter = Task { () async -> AuthError? in
            await thrownAuthError { () async throws(AuthError) in
                try await store.withExclusiveRefresh(key: "acme") {}
            }
        }
        await clock.sleepers(atLeast: 1)
        clock.advance(by: .seconds(59))
        await clock.sleepers(atLeast: 1)  // polled again at 59 s, still held: waits on
        clock.advance(by: .seconds(2))
        let timedOut = await waiter.value
        #expect(timedOut?.code == .storeUnavailable)
        #expect(timedOut?.message.contains("more than") == true)
        #expect(AuthError.Code.storeUnavailable.kind == .transport)
        release.raise()
        try await holder.value

        await expectAuthError(.storeFailed) {
            try await store.withExclusiveRefresh(key: "acme") { () async throws(AuthError) in
                throw AuthError(.storeFailed, "disk full")
            }
        }
        #expect(try await store.withExclusiveRefresh(key: "acme") { 42 } == 42)
    }

    @Test("the lock file is 0600 beside the record in a 0700 directory, and locking writes no record")
    func lockFile() async throws {
        let scratch = ScratchDirectory("lock")
        defer { scratch.remove() }
        let directory = scratch.child("nested/store")
        let store = FileSessionStore(directory: directory)
        try await store.withExclusiveRefresh(key: "acme") {}
        #expect(try permissions(directory) == 0o700)
        #expect(store.lockURL(forKey: "acme").lastPathComponent == "acme.json.lock")
        #expect(try permissions(store.lockURL(forKey: "acme")) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["acme.json.lock"])
        #expect(try await store.load(key: "acme") == nil)
    }

    // posix_spawn: not on iOS, tvOS, watchOS, visionOS.
    #if os(macOS) || os(Linux)
        // The holder is another process (its lock is held until it is killed, not on a clock); this process's wait
        // and timeout run on a manual clock, and only the child's start-up is bounded by real time.
        @Test(
            "another process's lock excludes this one, and its SIGKILL releases the lock at once",
            timeLimit(minutes: 1))
        func crossProcessHolderKilled() async throws {
            guard let crasher = StoreCrasher.require() else { return }
            let scratch = ScratchDirectory("lock")
            defer { scratch.remove() }
            let child = try await DedicatedThread.run { () throws -> ChildProcessBox in
                let child = try ChildProcess(crasher, ["hold-lock", scratch.url.path, "acme"])
                guard child.readLine(timeout: 30) == "locked" else {
                    throw ChildProcessError(description: "the holder did not take the lock")
                }
                return ChildProcessBox(child)
            }
            let clock = ManualClock()
            let store = FileSessionStore(directory: scratch.url, refreshLockTimeout: .seconds(60), clock: clock)
            let waiter = Task { () async -> AuthError? in
                await thrownAuthError { () async throws(AuthError) in
                    try await store.withExclusiveRefresh(key: "acme") {}
                }
            }
            await clock.sleepers(atLeast: 1)
            clock.advance(by: .seconds(61))
            #expect(await waiter.value?.code == .storeUnavailable)
            try await DedicatedThread.run {
                child.process.deliver(SIGKILL)
                try child.process.waitForExit()
            }
            // Once the holder is reaped, the very first attempt succeeds.
            let immediate = FileSessionStore(directory: scratch.url, refreshLockTimeout: .milliseconds(1))
            #expect(try await immediate.withExclusiveRefresh(key: "acme") { "mine" } == "mine")
        }

        // The holder is another process, as above; the refresh's wait for the lock runs on a manual clock.
        @Test(
            "a refresh blocked by a stuck holder fails as transport and keeps the session; it works once freed",
            timeLimit(minutes: 1))
        func stuckHolderKeepsSession() async throws {
            guard let crasher = StoreCrasher.require() else { return }
            let scratch = ScratchDirectory("lock")
            defer { scratch.remove() }
            let lockClock = ManualClock()
            let store = FileSessionStore(directory: scratch.url, refreshLockTimeout: .seconds(60), clock: lockClock)
            let harness = try AcmeHarness(store: store)
            defer { harness.server.stop() }
            let original = try await harness.signIn()
            let storedBefore = try await store.load(key: harness.client.storeKey)
            harness.clock.advance(3600 + 1)
            let key = harness.client.storeKey
            let child = try await DedicatedThread.run { () throws -> ChildProcessBox in
                let child = try ChildProcess(crasher, ["hold-lock", scratch.url.path, key])
                guard child.readLine(timeout: 30) == "locked" else {
                    throw ChildProcessError(description: "the holder did not take the lock")
                }
                return ChildProcessBox(child)
            }
            let client = harness.client
            let refresh = Task { () async -> AuthError? in
                await thrownAuthError { () async throws(AuthError) in
                    _ = try await client.validAccessToken()
                }
            }
            await lockClock.sleepers(atLeast: 1)
            lockClock.advance(by: .seconds(61))
            if let error = await refresh.value {
                #expect(error.code == .storeUnavailable)
                #expect(error.kind == .transport)
            } else {
                Issue.record("expected store_unavailable while another process holds the lock")
            }
            #expect(harness.refreshRequests.isEmpty)
            #expect(harness.client.state == .signedIn(original.userOrPlaceholder))
            #expect(try await store.load(key: harness.client.storeKey) == storedBefore)
            try await DedicatedThread.run {
                child.process.deliver(SIGKILL)
                try child.process.waitForExit()
            }
            #expect(try await harness.client.validAccessToken() == "at-2")
            #expect(harness.refreshRequests.count == 1)
        }
    #endif
}

#if os(macOS) || os(Linux)
    /// Hands a ``ChildProcess`` from one dedicated thread to another (never used by two threads at once).
    final class ChildProcessBox: @unchecked Sendable {
        let process: ChildProcess

        init(_ process: ChildProcess) { self.process = process }
    }
#endif
