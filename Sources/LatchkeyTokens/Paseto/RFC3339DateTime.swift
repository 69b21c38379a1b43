import Foundation

/// Parses RFC 3339 §5.6 `date-time` strings the way PASETO's registered claims require them:
/// `YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)`, with an uppercase `T` and `Z`.
///
/// Hand-written rather than `ISO8601DateFormatter` so that the accepted grammar is exact and the same
/// on every platform. A leap second (`:60`) is accepted and counts as the following second.
package enum RFC3339DateTime {
    /// The instant, or `nil` when the text is not a valid RFC 3339 date-time.
    package static func parse(_ text: String) -> Date? {
        var reader = DigitReader(Array(text.utf8))
        guard let year = reader.number(digits: 4), reader.skip("-"),
            let month = reader.number(digits: 2), reader.skip("-"),
            let day = reader.number(digits: 2), reader.skip("T"),
            let hour = reader.number(digits: 2), reader.skip(":"),
            let minute = reader.number(digits: 2), reader.skip(":"),
            let second = reader.number(digits: 2)
        else { return nil }
        guard (1...12).contains(month), (1...CivilCalendar.daysIn(month: month, year: year)).contains(day),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        var fraction = 0.0
        if reader.skip(".") {
            guard let value = reader.fraction() else { return nil }
            fraction = value
        }
        let offsetSeconds: Int
        if reader.skip("Z") {
            offsetSeconds = 0
        } else {
            let sign: Int
            if reader.skip("+") {
                sign = 1
            } else if reader.skip("-") {
                sign = -1
            } else {
                return nil
            }
            guard let offsetHour = reader.number(digits: 2), reader.skip(":"),
                let offsetMinute = reader.number(digits: 2), (0...23).contains(offsetHour),
                (0...59).contains(offsetMinute)
            else { return nil }
            offsetSeconds = sign * (offsetHour * 3600 + offsetMinute * 60)
        }
        guard reader.isAtEnd else { return nil }
        let days = CivilCalendar.daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: TimeInterval(seconds) + fraction)
    }

    /// A cursor over ASCII bytes.
    private struct DigitReader {
        let bytes: [UInt8]
        var position = 0

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
        }

        var isAtEnd: Bool { position == bytes.count }

        /// Reads exactly `digits` ASCII digits as a number.
        mutating func number(digits: Int) -> Int? {
            guard position + digits <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[position..<position + digits] {
                guard let digit = Self.digit(byte) else { return nil }
                value = value * 10 + digit
            }
            position += digits
            return value
        }

        /// Reads one or more digits after a decimal point as a fraction of a second (nanosecond precision).
        mutating func fraction() -> Double? {
            var value = 0.0
            var scale = 1.0
            var count = 0
            while position < bytes.count, let digit = Self.digit(bytes[position]) {
                if count < 9 {
                    scale /= 10
                    value += Double(digit) * scale
                }
                count += 1
                position += 1
            }
            return count > 0 ? value : nil
        }

        /// Consumes one ASCII character when it is next.
        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
            position += 1
            return true
        }

        private static func digit(_ byte: UInt8) -> Int? {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int(byte - UInt8(ascii: "0")) : nil
        }
    }
}
