import Foundation
public import ParleyProtocol

// Typing notices and read receipts (docs/protocol.md, "Receipts and typing").
extension ParleyClient {
    /// `typing.start`: the user is typing in `conversation`; call again every few seconds
    /// while they keep typing (the server ends a typing not refreshed within its timeout).
    public func startTyping(in conversation: ConversationID) async throws(ParleyError) {
        _ = try await call(Op.TypingStart.self, ConversationReference(conversationId: conversation))
    }

    /// `typing.stop`: the user stopped typing (or sent the message).
    public func stopTyping(in conversation: ConversationID) async throws(ParleyError) {
        _ = try await call(Op.TypingStop.self, ConversationReference(conversationId: conversation))
    }

    /// `message.readers`: who of a group has read the message at `seq`, with the count.
    public func readers(of seq: Int64, in conversation: ConversationID, cursor: String? = nil,
                        limit: Int? = nil) async throws(ParleyError) -> ReaderPage {
        try await call(Op.MessageReaders.self, ReadersParameters(conversationId: conversation, seq: seq, cursor: cursor, limit: limit))
    }

    /// `privacy.get`: the user's choices about read receipts, typing and last seen.
    public func privacy() async throws(ParleyError) -> PrivacySettings {
        try await call(Op.PrivacyGet.self, EmptyPayload())
    }

    /// `privacy.set`: replaces the user's choices.
    @discardableResult
    public func setPrivacy(_ settings: PrivacySettings) async throws(ParleyError) -> PrivacySettings {
        try await call(Op.PrivacySet.self, settings)
    }

    /// `user.lastSeen`: whether `user` is online or when they were last seen, as far as
    /// their privacy choice (and the user's own) lets this user know; both absent: hidden.
    public func lastSeen(of user: UserID) async throws(ParleyError) -> LastSeen {
        try await call(Op.UserLastSeen.self, UserReference(userId: user))
    }

    /// The other person's read marker moved: kept on the cached summary, then reported.
    func applyReceipt(_ receipt: ReceiptState) {
        if var summary = try? store.conversation(receipt.conversationId) {
            if let read = receipt.readSeq { summary.peerReadSeq = max(summary.peerReadSeq ?? 0, read) }
            if let delivered = receipt.deliveredSeq { summary.peerDeliveredSeq = max(summary.peerDeliveredSeq ?? 0, delivered) }
            try? store.setConversation(summary)
        }
        emit(.receipt(receipt))
    }

    func applyTyping(_ notice: TypingNotice) {
        emit(.typing(notice))
    }
}
