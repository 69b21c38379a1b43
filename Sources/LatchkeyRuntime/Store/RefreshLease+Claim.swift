import Foundation
import LatchkeyPlatform
import LatchkeyTokens

extension RefreshLease {
    /// Tries to claim a lease until `attempt` succeeds, backing off between tries, for the stores that share a
    /// session's refresh through a lease (``FileLock`` under ``RefreshLockPolicy/lease``, the keychain lock).
    /// - Parameters:
    ///   - timeout: How long to keep trying; also the longest a lease lasts.
    ///   - now: The wall clock leases are written in, in milliseconds since 1970.
    ///   - firstPause: The pause after the first failed try; it doubles up to `longestPause`.
    ///   - longestPause: The longest pause between tries.
    ///   - clock: The clock the pauses wait on, and the timeout is measured by (default ``SystemClock``).
    ///   - attempt: Tries to claim the given lease (the longest lease in milliseconds beside it); `true` when
    ///     the lease is now ours.
    /// - Returns: The lease claimed.
    /// - Throws: `store_unavailable` when another lease stays live past `timeout` or the waiting task is
    ///   cancelled; what `attempt` throws.
    package static func claim(
        timeout: LatchkeyDuration, now: @Sendable () -> Int64, firstPause: LatchkeyDuration,
        longestPause: LatchkeyDuration,
        clock: any LatchkeyClock = SystemClock(), _ attempt: (RefreshLease, Int64) async throws(AuthError) -> Bool
    ) async throws(AuthError) -> RefreshLease {
        let longest = timeout.leaseMilliseconds
        let deadline = clock.monotonicNow + timeout
        let owner = RefreshLease.newOwner()
        var pause = firstPause
        while true {
            let lease = RefreshLease(owner: owner, expiresAt: now() + longest)
            if try await attempt(lease, longest) { return lease }
            guard clock.monotonicNow < deadline else {
                throw AuthError(
                    .storeUnavailable,
                    "Another process has held the session's refresh lease for more than \(timeout); try again later.")
            }
            do {
                try await clock.sleep(for: pause)
            } catch {
                throw AuthError(.storeUnavailable, "Cancelled while waiting for the session's refresh lease.")
            }
            pause = min(pause * 2, longestPause)
        }
    }
}
