import Foundation

/// Parses HTTP dates (`Date` header, RFC 9110 IMF-fixdate), used to correct for clock skew.
enum HTTPDate {
    /// The date, or `nil` when the text is not an IMF-fixdate.
    static func parse(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.date(from: text.trimmingCharacters(in: .whitespaces))
    }
}
