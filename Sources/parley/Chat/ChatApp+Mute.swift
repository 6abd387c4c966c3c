import Foundation
import ParleyKit
import ParleyProtocol

// Muting the open chat's notifications in `parley chat`: `/mute` (for good, or `8h`, `1w`,
// `30m`, `2d`), `/unmute`. The sessions list marks a muted chat on every device (the server
// tells the others, `conversation.muted`).
extension ChatApp {
    /// Runs `command` if it is `/mute` or `/unmute`; false if it is neither.
    func muteCommand(_ command: String, in dialogue: DialogueViewModel) -> Bool {
        let parts = command.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard let verb = parts.first, verb == "/mute" || verb == "/unmute" else { return false }
        if Self.isMemberMute(parts, in: dialogue.kind) { return false }
        let usage = language.pick("/mute [30m|8h|2d|1w|forever] · /unmute", "/mute [30m|8h|2d|1w|forever]（静音）· /unmute（取消静音）")
        let client = self.client
        let conversation = dialogue.conversationId
        if verb == "/unmute" {
            Task {
                do throws(ParleyError) {
                    try await client.unmute(conversation)
                    showFlash(language.pick("Notifications on", "已取消静音"))
                } catch {
                    showFlash(describe(error), isError: true)
                }
                post.yield(.changed)
            }
            return true
        }
        guard parts.count <= 2, let span = Self.muteSpan(parts.count == 2 ? parts[1] : "forever") else {
            showFlash(usage, isError: true, seconds: 6)
            return true
        }
        let until = span.map { Int64(Date().timeIntervalSince1970 * 1000) + $0 }
        Task {
            do throws(ParleyError) {
                try await client.mute(conversation, until: until)
                showFlash(until == nil ? language.pick("Muted", "已静音")
                                       : language.pick("Muted until ", "静音至 ") + Self.untilLabel(until ?? 0))
            } catch {
                showFlash(describe(error), isError: true)
            }
            post.yield(.changed)
        }
        return true
    }

    /// Whether `/mute` or `/unmute` with these words is an admin's mute of a member
    /// (`/mute NAME MINUTES`, `/unmute NAME`: `runModeration`) rather than this chat's own
    /// notifications (no word, or a span). Decided by the words where they tell, since a chat
    /// opened a moment ago may not know its `kind` yet; a lone word that is no span is a
    /// member's name only in a group or room (which then answers with its own usage).
    static func isMemberMute(_ parts: [String], in kind: ConversationKind?) -> Bool {
        switch (parts.first, parts.count) {
        case ("/unmute", 2...), ("/mute", 3...): true
        case ("/mute", 2): muteSpan(parts[1]) == nil && (kind == .group || kind == .room)
        default: false
        }
    }

    /// A mute's length in ms from `30m`, `8h`, `2d`, `1w`; `.some(nil)` for `forever`; nil when
    /// it is none of these.
    static func muteSpan(_ text: String) -> Int64?? {
        if text == "forever" { return .some(nil) }
        guard let unit = text.last, let count = Int64(text.dropLast()), count > 0, count <= 10_000 else { return nil }
        let minute: Int64 = 60_000
        switch unit {
        case "m": return .some(count * minute)
        case "h": return .some(count * 60 * minute)
        case "d": return .some(count * 24 * 60 * minute)
        case "w": return .some(count * 7 * 24 * 60 * minute)
        default: return nil
        }
    }

    /// `yyyy-MM-dd HH:mm`, local time.
    private static func untilLabel(_ ms: Int64) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: Date(timeIntervalSince1970: Double(ms) / 1000))
    }
}
