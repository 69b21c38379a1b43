#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a failed `flock(2)` means for a refresh lock: the one place ``FileLock`` and its lease form decide
/// between "try again", "someone else holds it", "this file system has no locks" and "failed".
///
/// "Not supported" has two numbers on Darwin: `EOPNOTSUPP` (102) and `ENOTSUP` (45), which an SMB volume
/// returns; on Linux both are 95. A volume without locks runs the refresh unlocked (the file lease still
/// excludes all but exact ties) instead of failing every refresh with `store_unavailable`.
package enum FlockFailure: Sendable, Equatable {
    /// `EINTR`: a signal arrived; call `flock` again at once.
    case interrupted
    /// `EWOULDBLOCK`/`EAGAIN`: another holder has the lock; wait and try again.
    case held
    /// The file system has no `flock` (`ENOLCK`, `EOPNOTSUPP`, `ENOTSUP`, `ENOSYS`, `EINVAL`): go on unlocked.
    case unsupported
    /// Anything else: the lock cannot be had.
    case failed

    /// The `errno` values the classification looks at, by name, so that another platform's numbers can be
    /// checked on this one (Darwin's in the tests on Linux).
    package struct Numbers: Sendable, Equatable {
        /// `EINTR`.
        package var interrupted: Int32
        /// `EWOULDBLOCK` and `EAGAIN` (equal on Linux and Darwin, distinct on some systems).
        package var held: Set<Int32>
        /// The values that mean "no locks on this file system".
        package var unsupported: Set<Int32>

        /// Sorts a platform's constants into the three groups.
        package init(
            EINTR: Int32, EWOULDBLOCK: Int32, EAGAIN: Int32, ENOLCK: Int32, EOPNOTSUPP: Int32, ENOTSUP: Int32,
            ENOSYS: Int32, EINVAL: Int32
        ) {
            interrupted = EINTR
            held = [EWOULDBLOCK, EAGAIN]
            unsupported = [ENOLCK, EOPNOTSUPP, ENOTSUP, ENOSYS, EINVAL]
        }

        /// This platform's values.
        package static let current = Numbers(
            EINTR: EINTR, EWOULDBLOCK: EWOULDBLOCK, EAGAIN: EAGAIN, ENOLCK: ENOLCK, EOPNOTSUPP: EOPNOTSUPP,
            ENOTSUP: ENOTSUP, ENOSYS: ENOSYS, EINVAL: EINVAL)
    }

    /// Classifies the `errno` of a failed `flock`.
    /// - Parameters:
    ///   - code: The `errno` value.
    ///   - numbers: The platform's values (default: this platform's).
    /// - Returns: What the failure means.
    package static func classify(_ code: Int32, numbers: Numbers = .current) -> FlockFailure {
        if code == numbers.interrupted { return .interrupted }
        if numbers.held.contains(code) { return .held }
        if numbers.unsupported.contains(code) { return .unsupported }
        return .failed
    }
}
