/// A length of time, to the nanosecond: leeways, refresh intervals, lock timeouts and the waits of a
/// ``LatchkeyClock``.
///
/// Written like Swift's `Duration` (`.seconds(30)`, `.milliseconds(250)`), which needs iOS 16 / macOS 13, above
/// the package's deployment targets; convert with ``init(_:)`` and ``duration`` where the OS has it. Arithmetic
/// saturates instead of trapping: a duration is at most about 292 years either way.
public struct LatchkeyDuration: Sendable, Hashable, Comparable, AdditiveArithmetic, CustomStringConvertible {
    /// The length in nanoseconds.
    public let nanoseconds: Int64

    /// Creates a duration of a number of nanoseconds.
    /// - Parameter nanoseconds: The length.
    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// No time at all.
    public static let zero = LatchkeyDuration(nanoseconds: 0)

    /// A whole number of seconds.
    /// - Parameter seconds: The length.
    /// - Returns: The duration.
    public static func seconds(_ seconds: Int) -> LatchkeyDuration {
        LatchkeyDuration(nanoseconds: saturating(Int64(clamping: seconds), times: 1_000_000_000))
    }

    /// A number of seconds with a fraction; infinity and values beyond the range saturate, NaN is zero.
    /// - Parameter seconds: The length.
    /// - Returns: The duration.
    public static func seconds(_ seconds: Double) -> LatchkeyDuration {
        LatchkeyDuration(nanoseconds: clampedNanoseconds(seconds * 1e9))
    }

    /// A whole number of milliseconds.
    /// - Parameter milliseconds: The length.
    /// - Returns: The duration.
    public static func milliseconds(_ milliseconds: Int) -> LatchkeyDuration {
        LatchkeyDuration(nanoseconds: saturating(Int64(clamping: milliseconds), times: 1_000_000))
    }

    /// A whole number of microseconds.
    /// - Parameter microseconds: The length.
    /// - Returns: The duration.
    public static func microseconds(_ microseconds: Int) -> LatchkeyDuration {
        LatchkeyDuration(nanoseconds: saturating(Int64(clamping: microseconds), times: 1_000))
    }

    /// The length in seconds.
    public var timeInterval: Double { Double(nanoseconds) / 1e9 }

    /// The length in seconds, as the description shows it (`"1.5 seconds"`).
    public var description: String { "\(timeInterval) seconds" }

    /// Compares two lengths.
    public static func < (lhs: LatchkeyDuration, rhs: LatchkeyDuration) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    /// The sum, saturating.
    public static func + (lhs: LatchkeyDuration, rhs: LatchkeyDuration) -> LatchkeyDuration {
        let (sum, overflow) = lhs.nanoseconds.addingReportingOverflow(rhs.nanoseconds)
        guard overflow else { return LatchkeyDuration(nanoseconds: sum) }
        return LatchkeyDuration(nanoseconds: rhs.nanoseconds > 0 ? .max : .min)
    }

    /// The difference, saturating.
    public static func - (lhs: LatchkeyDuration, rhs: LatchkeyDuration) -> LatchkeyDuration {
        let (difference, overflow) = lhs.nanoseconds.subtractingReportingOverflow(rhs.nanoseconds)
        guard overflow else { return LatchkeyDuration(nanoseconds: difference) }
        return LatchkeyDuration(nanoseconds: rhs.nanoseconds < 0 ? .max : .min)
    }

    /// A multiple of a duration, saturating.
    public static func * (lhs: LatchkeyDuration, rhs: Int) -> LatchkeyDuration {
        LatchkeyDuration(nanoseconds: saturating(lhs.nanoseconds, times: Int64(clamping: rhs)))
    }

    /// A fraction of a duration (a divisor of zero gives zero).
    public static func / (lhs: LatchkeyDuration, rhs: Int) -> LatchkeyDuration {
        guard rhs != 0 else { return .zero }
        let (quotient, overflow) = lhs.nanoseconds.dividedReportingOverflow(by: Int64(clamping: rhs))
        return LatchkeyDuration(nanoseconds: overflow ? .max : quotient)
    }

    /// Converts a Swift `Duration` (sub-nanosecond parts are dropped; the range saturates).
    /// - Parameter duration: The duration.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    public init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let whole = LatchkeyDuration.saturating(seconds, times: 1_000_000_000)
        self = LatchkeyDuration(nanoseconds: whole) + LatchkeyDuration(nanoseconds: attoseconds / 1_000_000_000)
    }

    /// The same length as a Swift `Duration`.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    public var duration: Duration { .nanoseconds(nanoseconds) }

    private static func saturating(_ value: Int64, times factor: Int64) -> Int64 {
        let (product, overflow) = value.multipliedReportingOverflow(by: factor)
        guard overflow else { return product }
        return (value < 0) != (factor < 0) ? .min : .max
    }

    private static func clampedNanoseconds(_ value: Double) -> Int64 {
        guard !value.isNaN else { return 0 }
        if value >= 9.2e18 { return .max }
        if value <= -9.2e18 { return .min }
        return Int64(value.rounded())
    }
}
