/// An instant on ``MonotonicClock``: deadlines and elapsed times that setting the wall clock cannot move.
///
/// The package's stand-in for `ContinuousClock.Instant` (iOS 16 / macOS 13).
package struct MonotonicInstant: Sendable, Hashable, Comparable {
    /// Nanoseconds since the clock's origin.
    package let nanoseconds: UInt64

    /// An instant a number of nanoseconds after the clock's origin.
    /// - Parameter nanoseconds: The reading.
    package init(nanoseconds: UInt64) {
        self.nanoseconds = nanoseconds
    }

    /// The current instant.
    package static var now: MonotonicInstant { MonotonicInstant(nanoseconds: MonotonicClock.nanoseconds()) }

    /// The time from `self` to `other` (negative when `other` is earlier).
    /// - Parameter other: The later instant.
    /// - Returns: The duration.
    package func duration(to other: MonotonicInstant) -> LatchkeyDuration {
        if other.nanoseconds >= nanoseconds {
            return LatchkeyDuration(nanoseconds: Int64(clamping: other.nanoseconds - nanoseconds))
        }
        return LatchkeyDuration(nanoseconds: -Int64(clamping: nanoseconds - other.nanoseconds))
    }

    /// The instant a duration later (earlier for a negative one), saturating at the clock's range.
    package static func + (lhs: MonotonicInstant, rhs: LatchkeyDuration) -> MonotonicInstant {
        if rhs.nanoseconds >= 0 {
            let (sum, overflow) = lhs.nanoseconds.addingReportingOverflow(UInt64(rhs.nanoseconds))
            return MonotonicInstant(nanoseconds: overflow ? .max : sum)
        }
        let back = rhs.nanoseconds.magnitude
        return MonotonicInstant(nanoseconds: lhs.nanoseconds >= back ? lhs.nanoseconds - back : 0)
    }

    /// The time between two instants.
    package static func - (lhs: MonotonicInstant, rhs: MonotonicInstant) -> LatchkeyDuration {
        rhs.duration(to: lhs)
    }

    /// Whether `lhs` comes first.
    package static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }
}

extension LatchkeyDuration {
    /// Suspends the current task for a duration (at once for zero or less), on any OS the package supports.
    /// - Parameter duration: How long.
    /// - Throws: `CancellationError` when the task is cancelled.
    package static func sleep(_ duration: LatchkeyDuration) async throws {
        try await Task.sleep(nanoseconds: UInt64(max(duration.nanoseconds, 0)))
    }
}
