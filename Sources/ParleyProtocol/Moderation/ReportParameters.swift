/// `report.create`: what is reported, exactly one of a message (`conversationId` and
/// `messageId`), a user (`userId`) or a conversation (`conversationId` alone).
public struct ReportParameters: Codable, Sendable, Equatable {
    public var conversationId: ConversationID?
    public var messageId: String?
    public var userId: UserID?
    public var reason: ReportReason
    /// The reporter's words for the moderators, bounded in bytes (`--max-report-note-bytes`).
    public var note: String?

    public init(conversationId: ConversationID? = nil, messageId: String? = nil, userId: UserID? = nil,
                reason: ReportReason, note: String? = nil) {
        self.conversationId = conversationId
        self.messageId = messageId
        self.userId = userId
        self.reason = reason
        self.note = note
    }
}

/// The answer to `report.create`: the report's id (a decimal string).
public struct ReportReceipt: Codable, Sendable, Equatable {
    public var id: String
    public var createdAt: Int64

    public init(id: String, createdAt: Int64) {
        self.id = id
        self.createdAt = createdAt
    }
}
