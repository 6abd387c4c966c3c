import ParleyProtocol

// What a member sees of a group that hides its earlier history from newcomers (the default;
// docs/protocol.md, "Group governance"): nothing at or before their `historyFrom`, by any
// path — a message named by id, a reply's preview, a pin, an action's live update.
extension ConversationAccess {
    /// The message `id` of `conversation` as `user` may name it: `target`, and within what
    /// they see of the conversation (`historyStart`). A message from before a member joined
    /// a group that hides earlier history is `not_found` to them, exactly like one that does
    /// not exist (message ids are sequential, so any other answer would confirm a guess).
    static func target(_ id: String, in conversation: ConversationID, seenBy user: UserID, reader: StoreReader,
                       notices: Bool = false) throws -> Message {
        let message = try target(id, in: conversation, reader: reader, notices: notices)
        guard message.seq > (try historyStart(of: conversation, for: user, reader: reader)) else {
            throw ProtocolError(.notFound, "no such message in this conversation", field: "messageId")
        }
        return message
    }

    /// The sequence number after which `user` sees `conversation`: where they joined a group
    /// that hides earlier history from newcomers, else 0 (1:1 conversations, rooms, groups
    /// that show it, and non-members, whom `readable` refuses anyway).
    static func historyStart(of conversation: ConversationID, for user: UserID, reader: StoreReader) throws -> Int64 {
        try reader.member(of: conversation, user: user)?.historyFrom ?? 0
    }

    /// Who among a group's members does not see all of a message at `seq` that quotes one at
    /// `quoted`: `message`, those whose history starts at or after `seq` (they see neither);
    /// `quote`, those who see the message but not what it quotes. Empty for 1:1
    /// conversations and rooms. Reads the members in pages of `batch`.
    static func partialViewers(in conversation: ConversationID, kind: ConversationKind, seq: Int64, quoted: Int64?,
                               reader: StoreReader, batch: Int) throws -> (message: [UserID], quote: [UserID]) {
        guard kind == .group else { return ([], []) }
        var message: [UserID] = []
        var quote: [UserID] = []
        var cursor: UserID?
        // Bounded by the group's size: each batch moves the cursor on, a short one is the last.
        while true {
            let members = try reader.members(of: conversation, after: cursor, limit: batch)
            for member in members where member.historyFrom > 0 {
                if member.historyFrom >= seq {
                    message.append(member.userID)
                } else if let quoted, member.historyFrom >= quoted {
                    quote.append(member.userID)
                }
            }
            guard members.count == batch, let last = members.last?.userID else { break }
            cursor = last
        }
        return (message, quote)
    }

    /// What stands for a message someone may not see, in an update they must still get (its
    /// event keeps their sequence gapless): its place, no content, as a hidden message shows.
    static func placeholder(of message: Message) -> Message {
        var placeholder = Message(id: message.id, conversationId: message.conversationId, seq: message.seq, sender: nil,
                                  clientId: nil, kind: message.kind, createdAt: message.createdAt)
        placeholder.hidden = true
        return placeholder
    }
}
