import Foundation
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

/// `Date` headers are read by hand when they are canonical IMF-fixdates; the result must be exactly what the
/// `DateFormatter` that read every one of them before gives, and everything else still goes to it.
@Suite("Session: HTTP dates")
struct HTTPDateTests {
    private static func formatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }

    @Test("every canonical fixdate reads by hand as the formatter reads it")
    func canonicalDates() {
        let formatter = Self.formatter()
        var seconds = -2_208_988_800.0  // 1900-01-01
        var checked = 0
        while seconds < 7_258_118_400 {  // 2200-01-01
            let text = formatter.string(from: Date(timeIntervalSince1970: seconds))
            #expect(HTTPDate.fixdate(text) != nil, "\(text)")
            #expect(HTTPDate.parse(text) == formatter.date(from: text), "\(text)")
            seconds += 86_400 * 3.7 + 4_321  // every weekday, month, leap day and time of day over time
            checked += 1
        }
        #expect(checked > 25_000)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == Date(timeIntervalSince1970: 784_111_777))
        #expect(HTTPDate.parse("Tue, 29 Feb 2000 23:59:59 GMT") == Date(timeIntervalSince1970: 951_868_799))
    }

    @Test(
        "anything else is decided by the formatter, as before",
        arguments: [
            " Sun, 06 Nov 1994 08:49:37 GMT ", "sun, 06 nov 1994 08:49:37 GMT", "Mon, 06 Nov 1994 08:49:37 GMT",
            "Sun, 31 Feb 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:49:60 GMT",
            "Sun, 6 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
            "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 06 Nov 1994 08:49:37 GMT+1", "", "garbage",
            "Thu, 01 Jan 1970 00:00:00 GMT",
        ])
    func otherText(text: String) {
        let expected = Self.formatter().date(from: text.trimmingCharacters(in: .whitespaces))
        #expect(HTTPDate.parse(text) == expected)
    }
}
