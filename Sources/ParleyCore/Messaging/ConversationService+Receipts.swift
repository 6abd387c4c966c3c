public import ParleyProtocol

// Read receipts (docs/protocol.md, "Receipts and typing"): derived from the members' read
// markers when asked, never stored per message. A 1:1 sender hears one event per move of the
// other person's marker; a group's counts are computed on request, so a group of 1,000 costs
// nothing per message and one pass over its members per `message.readers`.
extension ConversationService {
    /// A move of a 1:1 read marker, for the other person.
    struct Receipt: Sendable {
        let to: UserID
        let state: ReceiptState
    }

    /// Tells the other person of a 1:1 conversation that their messages were read.
    func announce(_ receipt: Receipt?) {
        guard let receipt else { return }
        context.delivery.deliver(.conversationReceipt(receipt.state), to: [receipt.to], excluding: nil)
    }

    /// The other person's read marker in a 1:1 conversation; nil elsewhere.
    static func peerReadSeq(in conversation: StoredConversation, of user: UserID, reader: StoreReader) throws -> Int64? {
        guard conversation.kind == .user, let a = conversation.userA, let b = conversation.userB else { return nil }
        return try reader.member(of: conversation.id, user: a == user ? b : a)?.readSeq
    }

    /// Who of a group has read the message at `seq` (the members whose read marker reached
    /// it, the sender left out), counted over all members, with a page of their profiles.
    public func readers(for user: UserID, _ parameters: ReadersParameters) async throws(ProtocolError) -> ReaderPage {
        let after = try PageKey.parse(parameters.cursor)
        let limit = context.listLimit(parameters.limit)
        let budget = context.rules.maxAnswerBytes
        let batch = context.rules.maxMemberPage
        return try await context.gateway.read { reader in
            let id = parameters.conversationId
            _ = try ConversationAccess.group(id, member: user, reader: reader)
            guard let message = try reader.message(in: id, seq: parameters.seq) else {
                throw ProtocolError(.notFound, "no message with this seq", field: "seq")
            }
            var readers: [UserID] = []
            var others = 0
            var cursor: UserID?
            // One pass over the members in batches; bounded by the group's size (each batch
            // moves the cursor on, a short one is the last).
            while true {
                let members = try reader.members(of: id, after: cursor, limit: batch)
                for member in members where member.userID != message.sender {
                    others += 1
                    if member.readSeq >= parameters.seq { readers.append(member.userID) }
                }
                guard members.count == batch, let last = members.last?.userID else { break }
                cursor = last
            }
            let page = try MessagingContext.userPage(readers, after: after, limit: limit, budget: budget, reader: reader)
            return ReaderPage(count: readers.count, of: others, readers: page.users, nextCursor: page.nextCursor)
        }
    }
}
