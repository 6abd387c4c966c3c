public import ParleyProtocol

/// What message actions keep beside the messages themselves (part of `StoreReader`): who hid
/// which message for themselves, the pinned messages, and who was mentioned where. A
/// message's own state (edited text, recall, reactions, reply, mentions) lives in its row.
public protocol MessageActionReader {
    /// Of `ids` (messages of `conversation`), those `user` has hidden for themselves.
    func hiddenMessageIDs(of user: UserID, in conversation: ConversationID, among ids: [Int64]) throws -> Set<Int64>
    /// The pinned messages of `conversation`, newest pin first.
    func pins(in conversation: ConversationID) throws -> [StoredPin]
    /// Per conversation of `user` (1:1 and group), how many messages after their read marker
    /// mention them by id or through `@all`, not counting their own; conversations with
    /// none are left out.
    func mentionCounts(for user: UserID) throws -> [ConversationID: Int64]
}

/// Message action changes (part of `StoreWriter`).
public protocol MessageActionWriter: MessageActionReader {
    /// Rewrites the text and everything kept with it (image, notice, reply, mentions, edit
    /// and recall marks, reactions) of the stored message with `message.id`; the sequence,
    /// sender, client id, kind and time stay. Nothing happens if there is no such message.
    func replaceMessage(_ message: Message) throws
    /// Hides a message for `user` (again: nothing changes).
    func hideMessage(_ id: Int64, in conversation: ConversationID, for user: UserID, at time: Int64) throws
    /// Pins a message; false (and nothing changed) if it was pinned already.
    func insertPin(_ pin: StoredPin) throws -> Bool
    /// Unpins a message; false if it was not pinned.
    func deletePin(of message: Int64, in conversation: ConversationID) throws -> Bool
    /// Records that the message at `seq` of `conversation`, sent by `sender`, mentions
    /// `users` (nil in the list: `@all`).
    func insertMentions(in conversation: ConversationID, seq: Int64, sender: UserID, users: [UserID?]) throws
    /// Forgets the mentions of the message at `seq` (it was recalled).
    func deleteMentions(in conversation: ConversationID, seq: Int64) throws
}

/// A pinned message.
public struct StoredPin: Sendable, Equatable {
    public var conversationID: ConversationID
    public var messageID: Int64
    public var pinnedBy: UserID
    public var pinnedAt: Int64

    public init(conversationID: ConversationID, messageID: Int64, pinnedBy: UserID, pinnedAt: Int64) {
        self.conversationID = conversationID
        self.messageID = messageID
        self.pinnedBy = pinnedBy
        self.pinnedAt = pinnedAt
    }
}
