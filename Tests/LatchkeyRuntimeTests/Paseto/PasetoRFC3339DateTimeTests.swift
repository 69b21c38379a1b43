import Foundation
import LatchkeyTokens
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

@Suite("PASETO RFC 3339 date-times")
struct PasetoRFC3339DateTimeTests {
    @Test(
        "valid date-times parse to the right instant",
        arguments: [
            ("2022-01-01T00:00:00+00:00", 1_640_995_200.0),
            ("2022-01-01T00:00:00Z", 1_640_995_200.0),
            ("2022-01-01T01:30:00+01:30", 1_640_995_200.0),
            ("2021-12-31T19:00:00-05:00", 1_640_995_200.0),
            ("2022-01-01T00:00:00.25Z", 1_640_995_200.25),
            ("2022-01-01T00:00:00.123456789123Z", 1_640_995_200.123456789),
            ("1970-01-01T00:00:00Z", 0),
            ("1969-12-31T23:59:59Z", -1),
            ("2000-02-29T00:00:00Z", 951_782_400),
            ("2016-12-31T23:59:60Z", 1_483_228_800),
            ("2039-01-01T00:00:00+00:00", 2_177_452_800),
        ])
    func valid(_ text: String, _ seconds: Double) throws {
        let date = try #require(RFC3339DateTime.parse(text))
        #expect(abs(date.timeIntervalSince1970 - seconds) < 1e-6)
    }

    @Test(
        "invalid date-times are rejected",
        arguments: [
            "", "2022-01-01", "2022-01-01T00:00:00", "2022-01-01t00:00:00Z", "2022-01-01T00:00:00z",
            "2022-01-01 00:00:00Z", "2022-13-01T00:00:00Z", "2022-02-29T00:00:00Z", "1900-02-29T00:00:00Z",
            "2022-04-31T00:00:00Z", "2022-01-01T24:00:00Z", "2022-01-01T00:60:00Z", "2022-01-01T00:00:61Z",
            "2022-01-01T00:00:00.Z", "2022-01-01T00:00:00+0000", "2022-01-01T00:00:00+24:00", "22-01-01T00:00:00Z",
            "2022-1-01T00:00:00Z", "2022-01-01T00:00:00Z ", "+2022-01-01T00:00:00Z", "2022-01-01T00:00:00+00:00:00",
            "２０２２-01-01T00:00:00Z",
        ])
    func invalid(_ text: String) {
        #expect(RFC3339DateTime.parse(text) == nil)
    }
}
