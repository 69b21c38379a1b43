import LatchkeyPlatform
import Testing

@Suite("LatchkeyDuration: Duration's spelling on every OS, saturating")
struct LatchkeyDurationTests {
    @Test(
        "factories",
        arguments: [
            (LatchkeyDuration.seconds(2), Int64(2_000_000_000)),
            (.seconds(1.5), 1_500_000_000),
            (.seconds(-0.25), -250_000_000),
            (.milliseconds(250), 250_000_000),
            (.microseconds(3), 3_000),
            (.zero, 0),
            (.seconds(Double.infinity), .max),
            (.seconds(-Double.infinity), .min),
            (.seconds(Double.nan), 0),
            (.seconds(Int.max), .max),
            (.milliseconds(Int.min), .min),
        ])
    func factories(duration: LatchkeyDuration, nanoseconds: Int64) {
        #expect(duration.nanoseconds == nanoseconds)
    }

    @Test("arithmetic and comparison")
    func arithmetic() {
        #expect(LatchkeyDuration.seconds(1) + .milliseconds(500) == .seconds(1.5))
        #expect(LatchkeyDuration.seconds(1) - .seconds(3) == .seconds(-2))
        #expect(LatchkeyDuration.seconds(3) * 4 == .seconds(12))
        #expect(LatchkeyDuration.seconds(3) / 2 == .milliseconds(1500))
        #expect(LatchkeyDuration.seconds(3) / 0 == .zero)
        #expect(LatchkeyDuration.milliseconds(999) < .seconds(1))
        #expect(LatchkeyDuration.seconds(90).timeInterval == 90)
        #expect(LatchkeyDuration.seconds(1.5).description == "1.5 seconds")
    }

    @Test("overflow saturates instead of trapping")
    func saturation() {
        let big = LatchkeyDuration(nanoseconds: .max - 1)
        #expect((big + .seconds(1)).nanoseconds == .max)
        #expect((LatchkeyDuration(nanoseconds: .min + 1) - .seconds(1)).nanoseconds == .min)
        #expect((big * 2).nanoseconds == .max)
        #expect((big * -2).nanoseconds == .min)
        #expect((LatchkeyDuration(nanoseconds: .min) / -1).nanoseconds == .max)
    }

    @Test("converts to and from Swift's Duration")
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    func durationConversion() {
        #expect(LatchkeyDuration(Duration.milliseconds(1500)) == .milliseconds(1500))
        #expect(LatchkeyDuration.seconds(2).duration == Duration.seconds(2))
        #expect(LatchkeyDuration(Duration.seconds(Int64.max)).nanoseconds == .max)
    }
}
