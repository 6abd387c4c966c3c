import Foundation
import ParleyKit
import ParleyProtocol

// Message actions in `parley chat` (docs/protocol.md, "Message actions"): commands typed in
// the dialogue's input, each naming a message by the number shown beside it (its `#seq`).
extension ChatApp {
    /// The commands and their usage, in the reader's language.
    var actionUsage: String {
        language.pick("/reply N text · /react N 👍 · /unreact N 👍 · /edit N text · /recall N · /forward N chat · /pin N · /unpin N · /hide N",
                      "/reply 编号 内容 · /react 编号 👍 · /unreact 编号 👍 · /edit 编号 内容 · /recall 编号 · /forward 编号 会话 · /pin 编号 · /unpin 编号 · /hide 编号")
    }

    /// Runs `command` if it is a message action; false if it is not one (the caller sends
    /// it as text, or tries another command).
    func runMessageAction(_ command: String, in dialogue: DialogueViewModel) -> Bool {
        let parts = command.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true).map(String.init)
        guard let verb = parts.first,
              ["/reply", "/react", "/unreact", "/edit", "/recall", "/forward", "/pin", "/unpin", "/hide", "/actions"].contains(verb) else {
            return false
        }
        if verb == "/actions" {
            showFlash(actionUsage, seconds: 8)
            return true
        }
        guard parts.count >= 2, let seq = Int64(parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "#"))),
              let message = dialogue.message(seq: seq) else {
            showFlash(language.pick("No message with that number here — ", "这里没有这个编号的消息 — ") + actionUsage, isError: true, seconds: 8)
            return true
        }
        let rest = parts.count > 2 ? parts[2] : ""
        let needsText = ["/reply", "/react", "/unreact", "/edit", "/forward"].contains(verb)
        guard !needsText || !rest.trimmingCharacters(in: .whitespaces).isEmpty else {
            showFlash(actionUsage, isError: true, seconds: 8)
            return true
        }
        let client = self.client
        let conversation = dialogue.conversationId
        let target = verb == "/forward" ? forwardTarget(rest) : nil
        if verb == "/forward", target == nil {
            showFlash(language.pick("No chat called \(rest)", "没有叫 \(rest) 的会话"), isError: true)
            return true
        }
        let done: String = switch verb {
        case "/reply": language.pick("Replied", "已回复")
        case "/react", "/unreact": language.pick("Reaction saved", "已回应")
        case "/edit": language.pick("Edited", "已编辑")
        case "/recall": language.pick("Recalled", "已撤回")
        case "/forward": language.pick("Forwarded", "已转发")
        case "/pin", "/unpin": language.pick("Pins updated", "置顶已更新")
        default: language.pick("Hidden for you", "已为你删除")
        }
        Task {
            do throws(ParleyError) {
                switch verb {
                case "/reply": try await client.reply(to: message, text: rest, in: conversation)
                case "/react": try await client.react(to: message, with: rest.trimmingCharacters(in: .whitespaces))
                case "/unreact": try await client.react(to: message, with: rest.trimmingCharacters(in: .whitespaces), removing: true)
                case "/edit": try await client.edit(message, text: rest)
                case "/recall": try await client.recall(message)
                case "/forward": if let target { try await client.forward(message, to: target) }
                case "/pin": try await client.pin(message)
                case "/unpin": try await client.pin(message, removing: true)
                default: try await client.hide(message)
                }
                showFlash(done)
            } catch {
                showFlash(describe(error), isError: true)
            }
            post.yield(.changed)
        }
        return true
    }

    /// The conversation of the sessions list whose title is `name` (any letter case).
    private func forwardTarget(_ name: String) -> ConversationID? {
        let wanted = name.trimmingCharacters(in: .whitespaces).lowercased()
        return sessions.rows.first { $0.title.lowercased() == wanted }?.id
    }
}
