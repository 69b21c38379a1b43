#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Readings of a clock that only moves forward and keeps counting while the machine sleeps, as
/// `ContinuousClock` does (iOS 16 / macOS 13, above the package's deployment targets): `CLOCK_MONOTONIC_RAW` on
/// Apple platforms, `CLOCK_BOOTTIME` on Linux.
package enum MonotonicClock {
    /// Nanoseconds since an arbitrary origin fixed at boot.
    package static func nanoseconds() -> UInt64 {
        var spec = timespec()
        #if canImport(Darwin)
            let clock = CLOCK_MONOTONIC_RAW
        #else
            let clock = CLOCK_BOOTTIME
        #endif
        let status = clock_gettime(clock, &spec)
        precondition(status == 0, "clock_gettime failed")
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }
}
