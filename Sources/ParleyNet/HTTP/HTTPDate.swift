import Glibc

/// Formats the `Date` header (RFC 9110 IMF-fixdate, e.g. `Sun, 06 Nov 1994 08:49:37 GMT`).
///
/// Done with integer arithmetic on the Unix time rather than `strftime`, which depends on
/// the process locale and would need a buffer dance for a fixed 29-byte string.
enum HTTPDate {
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                 "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The current time as an IMF-fixdate.
    static func now() -> String {
        format(secondsSince1970: Int(time(nil)))
    }

    /// `seconds` (Unix time, UTC) as an IMF-fixdate.
    static func format(secondsSince1970 seconds: Int) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civilDate(daysSince1970: days)
        // 1970-01-01 was a Thursday.
        let weekday = ((days % 7) + 7 + 4) % 7
        return "\(weekdays[weekday]), \(twoDigits(day)) \(months[month - 1]) \(year) "
            + "\(twoDigits(secondOfDay / 3600)):\(twoDigits(secondOfDay / 60 % 60)):\(twoDigits(secondOfDay % 60)) GMT"
    }

    /// The proleptic Gregorian (year, month 1...12, day 1...31) of a day count, counting
    /// in 400-year eras that start on 1 March so that the leap day falls at the end.
    private static func civilDate(daysSince1970: Int) -> (Int, Int, Int) {
        let shifted = daysSince1970 + 719_468 // days from 0000-03-01 to 1970-01-01
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
