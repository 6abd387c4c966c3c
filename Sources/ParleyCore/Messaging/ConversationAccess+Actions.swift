import ParleyProtocol

// Who may act on which message (docs/protocol.md, "Message actions"): the rules of edit,
// recall, reactions and pins, beside who may read and post.
extension ConversationAccess {
    /// The message `id` of `conversation`: it must be there, and not be a system notice
    /// (actions and notices are not acted on) unless `notices` allows it.
    static func target(_ id: String, in conversation: ConversationID, reader: StoreReader, notices: Bool = false) throws -> Message {
        guard let raw = Int64(id), raw > 0, let message = try reader.message(id: raw), message.conversationId == conversation,
              notices || message.kind != .system else {
            throw ProtocolError(.notFound, "no such message in this conversation", field: "messageId")
        }
        return message
    }

    /// Only the sender edits, only a text message that was not recalled, and only within the
    /// edit window.
    static func checkEditable(_ message: Message, by user: UserID, now: Int64, rules: MessagingRules) throws {
        guard message.sender == user else { throw ProtocolError(.notSender, "only the sender may edit a message") }
        guard message.recalled == nil else {
            throw ProtocolError(.invalidField, "this message was recalled", field: "messageId")
        }
        guard message.kind == .text else {
            throw ProtocolError(.invalidField, "only text messages can be edited", field: "messageId")
        }
        guard now - message.createdAt <= rules.editWindow else {
            throw ProtocolError(.windowClosed, "messages can be edited for \(rules.editWindow / 60_000) minutes after sending")
        }
    }

    /// The sender recalls within the recall window; a group's owner and admins recall any
    /// member's message at any time. A message is recalled once.
    static func checkRecallable(_ message: Message, in conversation: StoredConversation, by user: UserID, now: Int64,
                                rules: MessagingRules, reader: StoreReader) throws {
        guard message.recalled == nil else {
            throw ProtocolError(.invalidField, "this message was recalled already", field: "messageId")
        }
        if conversation.kind == .group, conversation.ownerID == user { return }
        if conversation.kind == .group, message.sender != user, let actor = try reader.member(of: conversation.id, user: user),
           actor.role == .admin {
            // An admin recalls members' messages, not the owner's or another admin's.
            let sender = try message.sender.flatMap { try reader.member(of: conversation.id, user: $0) }
            if (sender?.role.rank ?? 0) < actor.role.rank { return }
        }
        guard message.sender == user else { throw ProtocolError(.notSender, "only the sender may recall a message") }
        guard now - message.createdAt <= rules.recallWindow else {
            throw ProtocolError(.windowClosed, "messages can be recalled for \(rules.recallWindow / 1000) seconds after sending")
        }
    }

    /// A reaction is exactly one emoji: one grapheme that a terminal or browser draws as an
    /// emoji (an emoji-presentation character, or one made so by U+FE0F, a keycap or a ZWJ
    /// sequence).
    static func checkEmoji(_ emoji: String) throws(ProtocolError) {
        let scalars = emoji.unicodeScalars
        let isEmoji = emoji.count == 1 && emoji.utf8.count <= 64 && scalars.contains { scalar in
            scalar.properties.isEmojiPresentation || (scalar.properties.isEmoji && scalars.count > 1)
        }
        guard isEmoji else { throw ProtocolError(.invalidField, "a reaction is exactly one emoji", field: "emoji") }
    }

    /// Reactions are on messages that still exist as sent.
    static func checkReactable(_ message: Message) throws {
        guard message.recalled == nil else {
            throw ProtocolError(.invalidField, "this message was recalled", field: "messageId")
        }
    }
}
