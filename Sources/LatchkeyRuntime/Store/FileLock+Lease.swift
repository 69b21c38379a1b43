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

/// The ``RefreshLockPolicy/lease`` form of ``FileLock``: the lock file holds a ``RefreshLease``, read and
/// written under a non-blocking `flock` that is released again before `body` runs, so no file lock is held
/// while the refresh request is in flight (or while the app is suspended).
extension FileLock {
    /// Runs `body` while holding a lease in the lock file, and gives it up afterwards.
    /// - Throws: `store_unavailable` when the lock file cannot be opened or written, another process's lease
    ///   stays live past the timeout, or the waiting task is cancelled; otherwise what `body` throws.
    func withLease<T: Sendable>(_ body: @Sendable () async throws(AuthError) -> T) async throws(AuthError) -> T {
        let lease = try await acquireLease()
        do {
            let result = try await body()
            await releaseLease(lease)
            return result
        } catch {
            await releaseLease(lease)
            throw error
        }
    }

    private static let queue = BlockingQueue(label: "dev.latchkey.file-lock-lease")

    private func acquireLease() async throws(AuthError) -> RefreshLease {
        try await RefreshLease.claim(
            timeout: timeout, now: leaseClock, firstPause: .milliseconds(1), longestPause: .milliseconds(16),
            clock: clock
        ) { lease, longest throws(AuthError) in
            try await FileLock.queue.run { () throws(AuthError) in
                try self.underBriefLock { descriptor throws(AuthError) in
                    let found = try FileLock.readText(descriptor)
                    switch RefreshLease.decide(found: found, now: leaseClock(), longest: longest) {
                    case .wait:
                        return false
                    case .claim, .replace:
                        try FileLock.replaceText(descriptor, with: lease.encoded)
                        return true
                    }
                } ?? false
            }
        }
    }

    /// Clears the lease if it is still ours (best effort: a lease that expired and was taken over is not).
    private func releaseLease(_ lease: RefreshLease) async {
        for _ in 0..<100 {
            let done = try? await FileLock.queue.run { () throws(AuthError) in
                try self.underBriefLock { descriptor throws(AuthError) in
                    if try FileLock.readText(descriptor) == lease.encoded {
                        try FileLock.replaceText(descriptor, with: "")
                    }
                    return true
                } ?? false
            }
            if done != false { return }
            // Another process holds the flock for a few system calls.
            try? await LatchkeyDuration.sleep(.milliseconds(1))
        }
    }

    /// Opens the lock file, takes the `flock` without waiting, runs `work`, and releases both; `nil` when
    /// another process holds the `flock` at this instant (for a few system calls: try again).
    private func underBriefLock<T>(_ work: (Int32) throws(AuthError) -> T) throws(AuthError) -> T? {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw leaseFailure("open the refresh lock", errno) }
        defer { _ = close(descriptor) }
        var locked: Int32
        repeat {
            locked = flock(descriptor, LOCK_EX | LOCK_NB)
        } while locked != 0 && FlockFailure.classify(errno) == .interrupted
        if locked != 0 {
            let code = errno
            switch FlockFailure.classify(code) {
            case .held, .interrupted: return nil
            // No flock on this file system: the lease alone still excludes all but exact ties.
            case .unsupported: break
            case .failed: throw leaseFailure("lock the refresh lock", code)
            }
        }
        defer { if locked == 0 { _ = flock(descriptor, LOCK_UN) } }
        return try work(descriptor)
    }

    private static func readText(_ descriptor: Int32) throws(AuthError) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        var count: Int
        repeat {
            count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        } while count < 0 && errno == EINTR
        guard count >= 0 else {
            throw AuthError(.storeUnavailable, "Session store could not read the refresh lease (errno \(errno)).")
        }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }

    private static func replaceText(_ descriptor: Int32, with text: String) throws(AuthError) {
        let bytes = Array(text.utf8)
        guard ftruncate(descriptor, 0) == 0,
            bytes.withUnsafeBytes({ pwrite(descriptor, $0.baseAddress, $0.count, 0) }) == bytes.count
        else {
            throw AuthError(.storeUnavailable, "Session store could not write the refresh lease (errno \(errno)).")
        }
    }

    private func leaseFailure(_ operation: String, _ number: Int32) -> AuthError {
        AuthError(
            .storeUnavailable,
            "Session store could not \(operation): \(String(cString: strerror(number))) (errno \(number)).")
    }
}
