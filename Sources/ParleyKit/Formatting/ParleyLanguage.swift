import Foundation

/// The languages ParleyKit words things in (system notices, day headers, connection states).
public enum ParleyLanguage: String, Sendable, CaseIterable {
    /// English.
    case english = "en"
    /// Simplified Chinese.
    case chinese = "zh"

    /// Chinese when the user's preferred language (or, on a terminal, `LANG`) is Chinese;
    /// English otherwise.
    public static var preferred: ParleyLanguage {
        let environment = ProcessInfo.processInfo.environment
        let candidates = [environment["LC_ALL"], environment["LC_MESSAGES"], environment["LANG"]].compactMap { $0 }
            + Locale.preferredLanguages
        for candidate in candidates where !candidate.isEmpty && candidate != "C" && candidate != "POSIX" {
            return candidate.lowercased().hasPrefix("zh") ? .chinese : .english
        }
        return .english
    }

    /// Picks the English or the Chinese wording.
    public func pick(_ english: String, _ chinese: String) -> String {
        self == .chinese ? chinese : english
    }

    /// A name (a group's, a room's) set off in a sentence: “Tea” in English, 「Tea」 in Chinese,
    /// as the web client writes them.
    public func quoted(_ name: String) -> String {
        pick("“\(name)”", "「\(name)」")
    }
}
