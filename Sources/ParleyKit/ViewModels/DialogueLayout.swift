public import Foundation
public import ParleyProtocol

/// Turns messages into what a dialogue shows: day sections, bubbles and notices, time labels.
/// Pure, so that every client (and every test) lays a dialogue out the same way.
public struct DialogueLayout: Sendable {
    /// The reader.
    public var me: UserID?
    /// The reader's language.
    public var language: ParleyLanguage
    /// Time labels and days.
    public var formatter: MessageTimeFormatter
    /// The conversation's kind, where known: notices are worded for a group or a room.
    public var kind: ConversationKind?

    /// Creates a layout for a reader.
    public init(me: UserID?, language: ParleyLanguage = .english, formatter: MessageTimeFormatter = MessageTimeFormatter(),
                kind: ConversationKind? = nil) {
        self.me = me
        self.language = language
        self.formatter = formatter
        self.kind = kind
    }

    /// `messages` (any order, duplicates by seq dropped) grouped by day, oldest first.
    public func sections(for messages: [Message], now: Date = Date(), name: (UserID) -> String) -> [DialogueSection] {
        var seen = Set<Int64>()
        // Action events changed the messages they name (which show the result); hidden
        // messages are the reader's "delete for me": neither is a line of its own.
        let ordered = messages.sorted { $0.seq < $1.seq }.filter { seen.insert($0.seq).inserted }
            .filter { $0.hidden != true && $0.system?.type.isMessageAction != true }
        var sections: [DialogueSection] = []
        for message in ordered {
            let key = formatter.dayKey(for: message.createdAt)
            if sections.last?.id != key {
                sections.append(DialogueSection(id: key, title: formatter.dayTitle(for: message.createdAt, now: now, language: language), items: []))
            }
            sections[sections.count - 1].items.append(item(for: message, now: now, name: name))
        }
        return sections
    }

    /// One message as a bubble or a notice.
    public func item(for message: Message, now: Date = Date(), name: (UserID) -> String) -> DialogueItem {
        let time = formatter.label(for: message.createdAt, now: now)
        if message.kind == .system {
            let text = message.system.map { SystemNoticeText.text(for: $0, me: me, language: language, in: kind, name: name) } ?? ""
            return .notice(DialogueItem.Notice(id: message.id, seq: message.seq, text: text, timeLabel: time))
        }
        if let recall = message.recalled {
            // The tombstone: a notice in place of the message.
            let text = SystemNoticeText.text(for: SystemNotice(type: .messageRecalled, actor: recall.by), me: me, language: language, name: name)
            return .notice(DialogueItem.Notice(id: message.id, seq: message.seq, text: text, timeLabel: time))
        }
        let isSelf = message.sender != nil && message.sender == me
        let senderName = message.sender.map { isSelf ? language.pick("Me", "我") : name($0) } ?? ""
        var bubble = DialogueItem.Bubble(
            id: message.id, seq: message.seq, sender: message.sender, senderName: senderName, isSelf: isSelf,
            text: MessagePreview.text(for: message, me: me, language: language, in: kind, name: name), image: message.image,
            timeLabel: time, createdAt: message.createdAt)
        bubble.file = message.file
        bubble.isEdited = message.editedAt != nil
        bubble.isForwarded = message.forwarded == true
        bubble.reactions = message.reactions ?? []
        bubble.mentionsMe = me.map { message.mentions($0) } ?? false
        if let voice = message.voice {
            bubble.voice = voice
            let listened = message.listenedBy ?? []
            bubble.listenedCount = listened.count
            bubble.isListened = isSelf || me.map(listened.contains) == true
        }
        if let reply = message.replyTo {
            let quotedName = reply.sender.map { $0 == me ? language.pick("Me", "我") : name($0) } ?? ""
            let quoted = reply.recalled == true ? language.pick("[Recalled]", "[已撤回]")
                : reply.kind == .image ? language.pick("[Image]", "[图片]")
                : reply.kind == .voice ? language.pick("[Voice]", "[语音]") : (reply.excerpt ?? "…")
            bubble.reply = DialogueItem.Quote(messageId: reply.messageId, seq: reply.seq, text: quotedName.isEmpty ? quoted : "\(quotedName): \(quoted)")
        }
        return .message(bubble)
    }

    /// An outbox entry as a pending bubble.
    public func pending(_ entry: OutboxEntry, now: Date = Date()) -> PendingBubble {
        var failure: String?
        if case .failed(let error) = entry.state { failure = error.message }
        let text = entry.kind == .image ? language.pick("[Image]", "[图片]") : Emoticons.emojify(entry.text ?? "")
        return PendingBubble(id: entry.clientId, text: text, timeLabel: formatter.label(for: entry.createdAt, now: now), failure: failure)
    }
}
