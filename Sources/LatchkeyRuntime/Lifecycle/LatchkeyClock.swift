import Foundation
import LatchkeyPlatform

/// The time a client reads and waits on: token expiry and leeways, the automatic refresh's checks, the
/// refresh lock's polling, the device flow's polls.
///
/// ``SystemClock`` is the real one. Tests inject a clock they move by hand (`ManualClock` in
/// `LatchkeyTesting`), so nothing that waits on time the runtime controls needs a real sleep.
public protocol LatchkeyClock: Sendable {
    /// The current time.
    var now: Date { get }

    /// Suspends until the clock reaches a deadline (at once when it already has).
    /// - Parameter deadline: The instant, on this clock.
    /// - Throws: `CancellationError` when the waiting task is cancelled.
    func sleep(until deadline: Date) async throws

    /// A reading of a clock that only moves forward, from an arbitrary origin: timeouts (the refresh lock's
    /// wait) are measured on it, so that setting the wall clock neither cuts a wait short nor stretches it.
    ///
    /// The default reads ``now`` (right for a clock moved by hand); ``SystemClock`` reads the system's monotonic
    /// clock (`CLOCK_MONOTONIC_RAW` on Apple platforms, `CLOCK_BOOTTIME` on Linux).
    var monotonicNow: LatchkeyDuration { get }

    /// Suspends for a duration of this clock's time.
    ///
    /// The default sleeps until ``now`` plus `duration`; ``SystemClock`` sleeps for the duration itself.
    /// - Parameter duration: How long.
    /// - Throws: `CancellationError` when the waiting task is cancelled.
    func sleep(for duration: LatchkeyDuration) async throws
}

extension LatchkeyClock {
    /// Reads ``now`` as the time since 1970.
    public var monotonicNow: LatchkeyDuration { .seconds(now.timeIntervalSince1970) }

    /// Suspends until ``now`` plus `duration`.
    /// - Parameter duration: How long.
    /// - Throws: `CancellationError` when the waiting task is cancelled.
    public func sleep(for duration: LatchkeyDuration) async throws {
        try await sleep(until: now.addingTimeInterval(duration.timeInterval))
    }
}

/// The real clock: it reads the time from a closure (`Date()` by default), measures timeouts on the system's
/// monotonic clock and sleeps with `Task.sleep`.
public struct SystemClock: LatchkeyClock {
    private let reading: @Sendable () -> Date

    /// Creates the clock.
    /// - Parameter now: Reads the current time (default `Date()`).
    public init(now: @escaping @Sendable () -> Date = { Date() }) {
        self.reading = now
    }

    /// The current time.
    public var now: Date { reading() }

    /// Sleeps with `Task.sleep` for the time left until `deadline` by ``now``.
    /// - Parameter deadline: The instant.
    /// - Throws: `CancellationError` when the waiting task is cancelled.
    public func sleep(until deadline: Date) async throws {
        let remaining = deadline.timeIntervalSince(now)
        try await LatchkeyDuration.sleep(.seconds(max(remaining, 0)))
    }

    /// The time since the first reading in this process, on the system's monotonic clock (unaffected by
    /// wall-clock changes).
    public var monotonicNow: LatchkeyDuration { MonotonicInstant.now - Self.origin }

    /// Sleeps with `Task.sleep` for `duration`, whatever the wall clock does meanwhile.
    /// - Parameter duration: How long.
    /// - Throws: `CancellationError` when the waiting task is cancelled.
    public func sleep(for duration: LatchkeyDuration) async throws {
        try await LatchkeyDuration.sleep(duration)
    }

    private static let origin = MonotonicInstant.now
}
