/// Date arithmetic of the proleptic Gregorian calendar in UTC, without `Calendar` or `DateFormatter`: the
/// one copy the PASETO claims' RFC 3339 times and the runtime's HTTP `Date` headers are read with.
package enum CivilCalendar {
    /// The number of days in a month.
    /// - Parameters:
    ///   - month: 1-12.
    ///   - year: The year.
    /// - Returns: 28-31.
    package static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a civil date (Howard Hinnant's `days_from_civil`).
    /// - Parameters:
    ///   - year: The year.
    ///   - month: 1-12.
    ///   - day: 1-31.
    /// - Returns: The days, negative before 1970.
    package static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
