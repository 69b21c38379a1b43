import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyTesting
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

/// Issue 19: the refresh lock's timeout is measured on a clock that only moves forward. It was measured on the
/// wall clock, so setting the clock back while a process waited stretched the wait (here: forever).
@Suite("Store: the refresh lock's timeout ignores the wall clock")
struct LockTimeoutWallClockTests {
    /// A wall clock that someone sets back an hour every time it is read.
    private static func rewindingClock() -> SystemClock {
        let reading = Locked(Date(timeIntervalSince1970: 1_800_000_000))
        return SystemClock {
            reading.withLock { date in
                date.addTimeInterval(-3600)
                return date
            }
        }
    }

    @Test(
        "waiting for a held file lock gives up after the timeout while the wall clock runs backwards",
        timeLimit(minutes: 1))
    func heldLockTimeout() async throws {
        let policy = RefreshLockPolicy.holdLock
        let scratch = ScratchDirectory("lock-wall-clock")
        defer { scratch.remove() }
        try FileManager.default.createDirectory(at: scratch.url, withIntermediateDirectories: true)
        let path = scratch.url.appendingPathComponent("acme.json.lock").path
        let waited = try await FileLock(path: path, timeout: .seconds(3600), policy: policy).withLock {
            () async throws(AuthError) -> AuthError? in
            await thrownAuthError { () async throws(AuthError) in
                try await FileLock(path: path, timeout: .milliseconds(50), clock: Self.rewindingClock(), policy: policy)
                    .withLock { () async throws(AuthError) in }
            }
        }
        #expect(waited?.code == .storeUnavailable)
        #expect(waited?.message.contains("for more than") == true)
    }

    @Test("claiming a lease gives up after the timeout while the wall clock runs backwards", timeLimit(minutes: 1))
    func leaseClaimTimeout() async throws {
        // (Leases themselves are written in wall-clock time, which processes share; only the wait is monotonic.)
        let neverClaimed: (RefreshLease, Int64) async throws(AuthError) -> Bool = { _, _ in false }
        let epoch: @Sendable () -> Int64 = { 0 }
        let failure = await thrownAuthError { () async throws(AuthError) in
            _ = try await RefreshLease.claim(
                timeout: .milliseconds(50), now: epoch, firstPause: .milliseconds(1), longestPause: .milliseconds(16),
                clock: Self.rewindingClock(), neverClaimed)
        }
        #expect(failure?.code == .storeUnavailable)
        #expect(failure?.message.contains("for more than") == true)
    }

    @Test("SystemClock's monotonic reading moves forward while its wall reading moves back")
    func systemClockReadings() async throws {
        let clock = Self.rewindingClock()
        let (wall, monotonic) = (clock.now, clock.monotonicNow)
        try await clock.sleep(for: .milliseconds(1))
        #expect(clock.now < wall)
        #expect(clock.monotonicNow > monotonic)
    }
}
