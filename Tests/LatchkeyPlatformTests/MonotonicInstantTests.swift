import LatchkeyPlatform
import Testing

@Suite("MonotonicInstant: deadlines on a clock that only moves forward")
struct MonotonicInstantTests {
    @Test("readings never go back, and a sleep is measured")
    func forward() async throws {
        let start = MonotonicInstant.now
        try await LatchkeyDuration.sleep(.milliseconds(20))
        let end = MonotonicInstant.now
        #expect(end > start)
        #expect(end - start >= .milliseconds(20))
        #expect(start.duration(to: end) == end - start)
        #expect(end.duration(to: start) == .zero - (end - start))
    }

    @Test("adding durations saturates at the clock's range")
    func saturating() {
        let origin = MonotonicInstant(nanoseconds: 100)
        #expect((origin + .seconds(-1)).nanoseconds == 0)
        #expect((origin + LatchkeyDuration(nanoseconds: .max)).nanoseconds == 100 + UInt64(Int64.max))
        #expect((MonotonicInstant(nanoseconds: .max) + .seconds(1)).nanoseconds == .max)
        #expect(origin + .zero == origin)
    }

    @Test("a sleep of zero or less returns at once")
    func nonPositiveSleep() async throws {
        try await LatchkeyDuration.sleep(.seconds(-5))
        try await LatchkeyDuration.sleep(.zero)
    }
}
