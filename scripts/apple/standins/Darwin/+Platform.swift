// Stand-in for the Darwin declarations LatchkeyPlatform uses: the unfair lock (<os/lock.h>, macOS 10.12 / iOS 10)
// and the monotonic clock (<time.h>'s clock_gettime, macOS 10.12 / iOS 10), as the Clang importer presents them.

/// A time in seconds and nanoseconds.
public struct timespec {
    public var tv_sec: Int
    public var tv_nsec: Int
    public init() {
        tv_sec = 0
        tv_nsec = 0
    }
}

/// A clock identifier (an imported C enum).
public struct clockid_t: Equatable, RawRepresentable {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
}

/// The clock that keeps counting while the machine sleeps and is not adjusted.
@available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
public var CLOCK_MONOTONIC_RAW: clockid_t { fatalError("stand-in") }

/// Reads a clock.
@available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
@discardableResult
public func clock_gettime(_ __clock_id: clockid_t, _ __tp: UnsafeMutablePointer<timespec>!) -> Int32 {
    fatalError("stand-in")
}

/// The unfair lock's storage.
public struct os_unfair_lock_s {
    public var _os_unfair_lock_opaque: UInt32
    public init() { _os_unfair_lock_opaque = 0 }
}

/// Takes the lock.
@available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
public func os_unfair_lock_lock(_ lock: UnsafeMutablePointer<os_unfair_lock_s>) { fatalError("stand-in") }

/// Releases the lock.
@available(macOS 10.12, iOS 10.0, tvOS 10.0, watchOS 3.0, *)
public func os_unfair_lock_unlock(_ lock: UnsafeMutablePointer<os_unfair_lock_s>) { fatalError("stand-in") }
