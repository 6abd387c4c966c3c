public import ParleyProtocol

/// What receipts keep (part of `StoreReader`): each member's delivered marker beside their read
/// marker, and each user's privacy choices. Typing is never stored.
public protocol ReceiptReader {
    /// How far `user`'s connections have received `conversation` (0 when nothing yet, or not
    /// a member).
    func deliveredSeq(in conversation: ConversationID, user: UserID) throws -> Int64
    /// The user's privacy choices; the defaults (everything shared) until they changed one.
    func privacy(of user: UserID) throws -> PrivacySettings
}

/// Receipt changes (part of `StoreWriter`).
public protocol ReceiptWriter: ReceiptReader {
    /// Moves `user`'s delivered marker to `seq`, never back and never past the newest
    /// message; returns the marker (0, and nothing stored, for a non-member).
    func markDelivered(conversation: ConversationID, user: UserID, upTo seq: Int64) throws -> Int64
    /// `markDelivered` for the message this same write has just appended, whose `seq` is its
    /// conversation's newest: the marker moves to `seq`, which is returned (0, and nothing
    /// stored, for a non-member). No marker can be past the newest message, so a store may
    /// do this without reading the conversation's counter or the marker back (the 1:1 send
    /// moves its online recipient's marker in its own write).
    func markDelivered(conversation: ConversationID, user: UserID, toAppended seq: Int64) throws -> Int64
    /// Replaces the user's privacy choices.
    func savePrivacy(_ settings: PrivacySettings, for user: UserID) throws
}

extension ReceiptWriter {
    /// The general move, for stores without a shorter way.
    public func markDelivered(conversation: ConversationID, user: UserID, toAppended seq: Int64) throws -> Int64 {
        try markDelivered(conversation: conversation, user: user, upTo: seq)
    }
}
