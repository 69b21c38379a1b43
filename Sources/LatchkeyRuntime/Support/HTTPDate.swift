import Foundation
import LatchkeyTokens

/// Parses HTTP dates (`Date` header, RFC 9110 IMF-fixdate), used to correct for clock skew.
enum HTTPDate {
    /// The date, or `nil` when the text is not an IMF-fixdate.
    ///
    /// A well-formed fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`, the only form RFC 9110 lets servers send) is
    /// read by hand, with no `DateFormatter` built on every token response; anything else (other case,
    /// surrounding whitespace, a weekday that does not match, a leap second) goes to the formatter, which
    /// decides as it always did.
    static func parse(_ text: String) -> Date? {
        if let date = fixdate(text) { return date }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.date(from: text.trimmingCharacters(in: .whitespaces))
    }

    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// A canonical IMF-fixdate whose fields are all in range and whose weekday is right; `nil` otherwise.
    static func fixdate(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 29, bytes[3] == UInt8(ascii: ","), bytes[4] == 0x20, bytes[7] == 0x20,
            bytes[11] == 0x20, bytes[16] == 0x20, bytes[19] == UInt8(ascii: ":"), bytes[22] == UInt8(ascii: ":"),
            bytes[25] == 0x20, bytes[26...28].elementsEqual("GMT".utf8),
            let weekday = weekdays.firstIndex(where: { $0.utf8.elementsEqual(bytes[0..<3]) }),
            let monthIndex = months.firstIndex(where: { $0.utf8.elementsEqual(bytes[8..<11]) }),
            let day = digits(bytes[5..<7]), let year = digits(bytes[12..<16]), let hour = digits(bytes[17..<19]),
            let minute = digits(bytes[20..<22]), let second = digits(bytes[23..<25])
        else { return nil }
        let month = monthIndex + 1
        guard year >= 1, day >= 1, day <= CivilCalendar.daysIn(month: month, year: year), hour < 24, minute < 60,
            second < 60
        else { return nil }
        let days = CivilCalendar.daysSinceEpoch(year: year, month: month, day: day)
        // 1970-01-01 was a Thursday.
        guard ((days % 7) + 7 + 4) % 7 == weekday else { return nil }
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    private static func digits(_ slice: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in slice {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
