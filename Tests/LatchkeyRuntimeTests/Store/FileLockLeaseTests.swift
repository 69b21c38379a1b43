import Foundation
@_spi(Generated) import LatchkeyTesting
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Issue 17, item 7: under the lease policy (the default on iOS) no `flock` is held while the refresh runs, so
/// an app suspended mid-refresh holds no file lock in its App Group container; refreshes still run one at a
/// time across lock users, and a dead holder's lease expires.
@Suite("Store: file lock lease policy")
struct FileLockLeaseTests {
    private func lockPath(_ scratch: ScratchDirectory) throws -> String {
        try FileManager.default.createDirectory(at: scratch.url, withIntermediateDirectories: true)
        return scratch.url.appendingPathComponent("acme.json.lock").path
    }

    /// Whether another open file description can take the `flock` right now.
    private func flockIsFree(_ path: String) -> Bool {
        let descriptor = open(path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { return true }
        defer { _ = close(descriptor) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return false }
        _ = flock(descriptor, LOCK_UN)
        return true
    }

    @Test("the platform default is the lease on iOS, tvOS, watchOS and visionOS, the held lock elsewhere")
    func platformDefault() {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
            #expect(RefreshLockPolicy.platformDefault == .lease)
        #else
            #expect(RefreshLockPolicy.platformDefault == .holdLock)
        #endif
    }

    @Test("while the body runs under a lease, no flock is held on the lock file (the held policy holds one)")
    func noFlockAcrossTheBody() async throws {
        let scratch = ScratchDirectory("lease-flock")
        defer { scratch.remove() }
        let path = try lockPath(scratch)
        let leased = try await FileLock(path: path, timeout: .seconds(30), policy: .lease).withLock {
            () async throws(AuthError) in flockIsFree(path)
        }
        #expect(leased)
        let held = try await FileLock(path: path, timeout: .seconds(30), policy: .holdLock).withLock {
            () async throws(AuthError) in flockIsFree(path)
        }
        #expect(held == false)
        // The lease is cleared afterwards.
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "")
    }

    @Test("bodies under leases on one lock file run one at a time", timeLimit(minutes: 1))
    func oneAtATime() async throws {
        let scratch = ScratchDirectory("lease-exclusive")
        defer { scratch.remove() }
        let path = try lockPath(scratch)
        // Each holder stays inside until all the others have tried and sleep on the manual clock.
        let clock = ManualClock()
        let (most, entries) = try await ExclusionProbe(clock: clock, users: 6).run { _, body in
            try await FileLock(path: path, timeout: .seconds(3600), clock: clock, policy: .lease).withLock {
                () async throws(AuthError) in await body()
            }
        }
        #expect(most == 1)
        #expect(entries == 6)
    }

    @Test(
        "an expired, unreadable or clock-skewed lease is taken over at once",
        arguments: [
            "latchkey-refresh-lease v1 dead 1000", "garbage", "latchkey-refresh-lease v1 skewed 99999999999999",
        ])
    func deadLeaseTakenOver(lease: String) async throws {
        let scratch = ScratchDirectory("lease-dead")
        defer { scratch.remove() }
        let path = try lockPath(scratch)
        try lease.write(toFile: path, atomically: false, encoding: .utf8)
        let ran = try await FileLock(path: path, timeout: .seconds(30), policy: .lease).withLock {
            () async throws(AuthError) in true
        }
        #expect(ran)
    }

    @Test(
        "another holder's live lease makes the lock wait, then give up with store_unavailable", timeLimit(minutes: 1))
    func liveLeaseTimesOut() async throws {
        let scratch = ScratchDirectory("lease-live")
        defer { scratch.remove() }
        let path = try lockPath(scratch)
        let frozen: Int64 = 1_800_000_000_000
        let live = "latchkey-refresh-lease v1 other \(frozen + 50)"
        try live.write(toFile: path, atomically: false, encoding: .utf8)
        // The waits sleep on a manual clock: the 60 s timeout passes when the test moves it.
        let clock = ManualClock()
        let waiter = Task { () async -> AuthError? in
            await thrownAuthError { () async throws(AuthError) in
                try await FileLock(
                    path: path, timeout: .seconds(60), clock: clock, policy: .lease, leaseClock: { frozen }
                )
                .withLock { () async throws(AuthError) in }
            }
        }
        await clock.sleepers(atLeast: 1)
        clock.advance(by: .seconds(59))
        await clock.sleepers(atLeast: 1)  // tried again at 59 s, still live: waits on
        clock.advance(by: .seconds(2))
        let error = await waiter.value
        #expect(error?.code == .storeUnavailable)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == live)
    }

    @Test("a lock file that is a symbolic link is refused, never followed")
    func symlinkRefused() async throws {
        let scratch = ScratchDirectory("lease-symlink")
        defer { scratch.remove() }
        let path = try lockPath(scratch)
        let target = scratch.url.appendingPathComponent("elsewhere").path
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        let error = await #expect(throws: AuthError.self) {
            try await FileLock(path: path, timeout: .seconds(30), policy: .lease).withLock {
                () async throws(AuthError) in
            }
        }
        #expect(error?.code == .storeUnavailable)
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    @Test("lease text round-trips, and a lease further ahead than the longest lease is not live")
    func leaseRules() {
        let lease = RefreshLease(owner: "a-b", expiresAt: 10_000)
        #expect(RefreshLease(encoded: lease.encoded) == lease)
        #expect(RefreshLease(encoded: "latchkey-refresh-lease v1 a") == nil)
        #expect(lease.isLive(now: 9_000, longest: 5_000))
        #expect(!lease.isLive(now: 10_000, longest: 5_000))
        #expect(!lease.isLive(now: 1_000, longest: 5_000))
        #expect(RefreshLease.decide(found: nil, now: 0, longest: 1) == .claim)
        #expect(RefreshLease.decide(found: "", now: 0, longest: 1) == .claim)
        #expect(RefreshLease.decide(found: lease.encoded, now: 9_000, longest: 5_000) == .wait)
        #expect(RefreshLease.decide(found: lease.encoded, now: 11_000, longest: 5_000) == .replace(lease.encoded))
    }
}
