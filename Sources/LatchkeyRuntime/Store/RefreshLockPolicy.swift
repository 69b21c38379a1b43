/// How a file-based refresh lock keeps other processes out while a refresh request runs.
///
/// iOS kills an app that is suspended while it holds a file lock in an App Group container
/// (`0xdead10cc`), and a refresh request can be in flight when the app goes to the background. So on iOS,
/// tvOS, watchOS and visionOS the lock is a lease written into the lock file under a lock held only for the
/// few system calls that read and write it; a lease whose holder was suspended or killed expires. Elsewhere
/// (Linux, macOS) nothing suspends a process that holds a lock, and the kernel releases a dead holder's lock
/// at once, so the lock is held across the refresh.
package enum RefreshLockPolicy: Sendable, Equatable {
    /// Hold the `flock` while the refresh runs.
    case holdLock
    /// Hold the `flock` only to claim and to release a lease written in the lock file.
    case lease

    /// The policy for the platform this runs on: ``lease`` where the system suspends apps (iOS, tvOS,
    /// watchOS, visionOS), ``holdLock`` elsewhere.
    package static var platformDefault: RefreshLockPolicy {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
            .lease
        #else
            .holdLock
        #endif
    }
}
