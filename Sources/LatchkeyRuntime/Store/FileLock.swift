import Foundation
import LatchkeyPlatform
import LatchkeyTokens

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive advisory lock on a lock file (`flock(2)`), shared by every process that opens the same path:
/// an app and its extensions over one ``FileSessionStore``, or two clients in one process.
///
/// A `flock` lock belongs to an open file description, so two processes, or two acquisitions in one process,
/// exclude each other, and the kernel releases it when the holder exits or is killed (even by `SIGKILL`): a
/// crash never leaves the lock held. Acquiring never blocks a thread: a non-blocking `flock` is retried with
/// short sleeps on ``clock`` (1 ms, doubling up to 16 ms) until the timeout. The descriptor is close-on-exec, so child
/// processes never inherit the lock.
///
/// The lock file is created with mode 0600 and never deleted: deleting it while another process waits on the
/// old inode would let two processes hold "the" lock at once. The lock is not reentrant: acquiring it again
/// from inside ``withLock(_:)`` waits for the timeout.
struct FileLock: Sendable {
    /// The lock file.
    let path: String
    /// How long to wait for another holder before giving up (and, under ``RefreshLockPolicy/lease``, how
    /// long a lease lasts).
    let timeout: LatchkeyDuration
    /// The clock the polling waits on, and the timeout is measured by.
    var clock: any LatchkeyClock = SystemClock()
    /// Whether the `flock` is held while `body` runs, or only while a lease is claimed and released
    /// (`FileLock+Lease.swift`).
    var policy = RefreshLockPolicy.platformDefault
    /// The wall clock leases are written in, in milliseconds since 1970 (processes share no other clock).
    var leaseClock: @Sendable () -> Int64 = RefreshLease.currentMilliseconds

    /// Runs `body` while holding the lock, and releases it afterwards, whether `body` returns or throws.
    /// - Parameter body: The work to do under the lock.
    /// - Returns: What `body` returns.
    /// - Throws: `store_unavailable` when the lock file cannot be opened, when another holder keeps the lock
    ///   past the timeout, or when the waiting task is cancelled; otherwise what `body` throws. A file system
    ///   without `flock` support runs `body` without the lock.
    func withLock<T: Sendable>(_ body: @Sendable () async throws(AuthError) -> T) async throws(AuthError) -> T {
        if policy == .lease { return try await withLease(body) }
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw failure("open the refresh lock", errno) }
        return try await withLock(descriptor: descriptor, body)
    }

    /// Runs `body` under the lock, with the lock file already open (opened off the cooperative pool and
    /// checked by the caller, without following links); this call owns the descriptor and closes it.
    /// Under ``RefreshLockPolicy/lease`` the descriptor is closed at once and a lease is taken instead.
    /// - Parameters:
    ///   - descriptor: The open lock file.
    ///   - body: The work to do under the lock.
    /// - Returns: What `body` returns.
    /// - Throws: as ``withLock(_:)``.
    func withLock<T: Sendable>(
        descriptor: Int32, _ body: @Sendable () async throws(AuthError) -> T
    ) async throws(AuthError) -> T {
        if policy == .lease {
            _ = close(descriptor)
            return try await withLease(body)
        }
        let held = try await acquire(descriptor)
        defer { release(held) }
        return try await body()
    }

    /// Takes the lock on an open lock file; returns the descriptor that holds it, or -1 when the file
    /// system does not support `flock` (the descriptor is closed and the caller proceeds unlocked).
    private func acquire(_ descriptor: Int32) async throws(AuthError) -> Int32 {
        let deadline = clock.monotonicNow + timeout
        var pause = LatchkeyDuration.milliseconds(1)
        while true {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return descriptor }
            let code = errno
            switch FlockFailure.classify(code) {
            case .interrupted:
                continue
            case .held:
                break
            case .unsupported:
                _ = close(descriptor)
                return -1
            case .failed:
                _ = close(descriptor)
                throw failure("lock the refresh lock", code)
            }
            guard clock.monotonicNow < deadline else {
                _ = close(descriptor)
                throw AuthError(
                    .storeUnavailable,
                    "Another process has held the session's refresh lock for more than \(timeout); try again later.")
            }
            do {
                try await clock.sleep(for: pause)
            } catch {
                _ = close(descriptor)
                throw AuthError(.storeUnavailable, "Cancelled while waiting for the session's refresh lock.")
            }
            pause = min(pause * 2, .milliseconds(16))
        }
    }

    private func release(_ descriptor: Int32) {
        guard descriptor >= 0 else { return }
        _ = flock(descriptor, LOCK_UN)
        _ = close(descriptor)
    }

    private func failure(_ operation: String, _ number: Int32) -> AuthError {
        AuthError(
            .storeUnavailable,
            "Session store could not \(operation): \(String(cString: strerror(number))) (errno \(number)).")
    }
}
