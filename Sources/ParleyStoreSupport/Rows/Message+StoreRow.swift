import ParleyCore
import ParleyProtocol

extension Message: JoinableRecord {
    /// The `messages` columns that `init(row:at:)` reads, in its order.
    package static let columns = ["id", "conversation_id", "seq", "sender_id", "client_id", "kind", "text", "body", "created_at"]
    /// `columns` for a `SELECT` from `messages` alone.
    package static let selectColumns = columns.joined(separator: ", ")

    /// A message from `columns`, starting at column `offset` of `row`.
    package init<Row: StoreRow>(row: Row, at offset: Int = 0) throws {
        let id = try row.int64(offset)
        let kindName = try row.string(offset + 5)
        guard let kind = MessageKind(rawValue: kindName) else {
            throw StoreError.failure("message \(id) has an unknown kind")
        }
        let body = try MessageBodyCoding.decode(row.optionalString(offset + 7), messageID: id)
        self.init(id: String(id),
                  conversationId: ConversationID(try row.int64(offset + 1)),
                  seq: try row.int64(offset + 2),
                  sender: try row.optionalInt64(offset + 3).map(UserID.init(rawValue:)),
                  clientId: try row.optionalString(offset + 4),
                  kind: kind,
                  text: try row.optionalString(offset + 6),
                  image: body.image,
                  system: body.system,
                  createdAt: try row.int64(offset + 8))
        file = body.file
        replyTo = body.replyTo.map { ReplyPreview(messageId: $0) }
        mentions = body.mentions
        mentionsAll = body.mentionsAll
        forwarded = body.forwarded
        editedAt = body.editedAt
        recalled = body.recalled
        reactions = body.reactions
        voice = body.voice
        listenedBy = body.listenedBy
    }
}
