public import Foundation

/// Times as the seed shows them: `HH:mm:ss` for a message under four hours old, otherwise
/// `yyyy-MM-dd HH:mm:ss`; plus day headers and the sessions list's short labels.
/// Built on `Calendar` (a value type) so it can be shared across threads.
public struct MessageTimeFormatter: Sendable {
    /// Messages younger than this show only the time of day.
    public static let recentWindow: TimeInterval = 4 * 60 * 60

    /// The calendar (Gregorian, in `timeZone`) that splits times into days.
    public let calendar: Calendar

    /// A formatter for `timeZone` (the device's by default).
    public init(timeZone: TimeZone = .current) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    /// The date of a protocol timestamp (ms since the epoch).
    public static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000)
    }

    /// A message's time label: `HH:mm:ss` when under four hours old (a clock slightly ahead
    /// counts as new), else `yyyy-MM-dd HH:mm:ss`.
    public func label(for milliseconds: Int64, now: Date = Date()) -> String {
        let date = Self.date(milliseconds)
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let time = String(format: "%02d:%02d:%02d", parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
        if now.timeIntervalSince(date) < Self.recentWindow { return time }
        return String(format: "%04d-%02d-%02d ", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0) + time
    }

    /// `yyyy-MM-dd` of the day a timestamp falls on: the key messages are grouped by.
    public func dayKey(for milliseconds: Int64) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: Self.date(milliseconds))
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    /// A day header: "Today", "Yesterday", else the date.
    public func dayTitle(for milliseconds: Int64, now: Date = Date(), language: ParleyLanguage = .english) -> String {
        let date = Self.date(milliseconds)
        if calendar.isDate(date, inSameDayAs: now) { return language.pick("Today", "今天") }
        if let yesterday = calendar.date(byAdding: .day, value: -1, to: now), calendar.isDate(date, inSameDayAs: yesterday) {
            return language.pick("Yesterday", "昨天")
        }
        return dayKey(for: milliseconds)
    }

    /// The sessions list's short label: `HH:mm` today, "Yesterday", else `yyyy-MM-dd`.
    public func shortLabel(for milliseconds: Int64, now: Date = Date(), language: ParleyLanguage = .english) -> String {
        let date = Self.date(milliseconds)
        if calendar.isDate(date, inSameDayAs: now) {
            let parts = calendar.dateComponents([.hour, .minute], from: date)
            return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
        }
        return dayTitle(for: milliseconds, now: now, language: language)
    }
}
