public import ParleyProtocol

/// One line for a message where there is no room for a bubble: the sessions list, a
/// notification, a terminal.
public enum MessagePreview {
    /// Text with emoji, "[Image]" for pictures, "[voice 0:12]" for voice notes, the notice's
    /// sentence for system messages (worded for the conversation's `kind` where known).
    public static func text(for message: Message, me: UserID? = nil, language: ParleyLanguage = .english,
                            in kind: ConversationKind? = nil, name: (UserID) -> String) -> String {
        switch message.kind {
        case .text:
            return Emoticons.emojify(message.text ?? "")
        case .image:
            return language.pick("[Image]", "[图片]")
        case .voice:
            let length = duration(message.voice?.durationMs ?? 0)
            return language.pick("[voice \(length)]", "[语音 \(length)]")
        case .file:
            guard let file = message.file else { return language.pick("[file]", "[文件]") }
            let label = "\(language.pick("file", "文件")) \(file.name) \(FileSizeText.text(file.size))"
            let caption = message.text.map { " " + Emoticons.emojify($0) } ?? ""
            return "[\(label)]\(caption)"
        case .system:
            guard let notice = message.system else { return "" }
            return SystemNoticeText.text(for: notice, me: me, language: language, in: kind, name: name)
        }
    }

    /// A voice note's length as minutes and seconds (`0:12`), rounded to the nearest second.
    public static func duration(_ milliseconds: Int) -> String {
        let seconds = max(0, milliseconds + 500) / 1000
        let padded = seconds % 60 < 10 ? "0\(seconds % 60)" : "\(seconds % 60)"
        return "\(seconds / 60):\(padded)"
    }

    /// The name a conversation goes by: the peer's display name for 1:1, else the group's or
    /// room's name.
    public static func title(of summary: ConversationSummary) -> String {
        if let peer = summary.peer { return peer.displayName }
        if let name = summary.name, !name.isEmpty { return name }
        return "#\(summary.id)"
    }

    /// An unread badge: the count, or "99+" beyond 99 (UI.md); empty for none.
    public static func badge(_ unread: Int64) -> String {
        unread <= 0 ? "" : unread > 99 ? "99+" : String(unread)
    }
}
