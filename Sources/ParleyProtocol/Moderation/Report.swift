/// A report as moderators see it (the admin API): what was reported, by whom and why, the
/// reported message as it was when reported, and where handling it stands.
public struct Report: Codable, Sendable, Equatable {
    /// What a report is about.
    public enum Target: String, Codable, Sendable { case message, user, conversation }
    public enum Status: String, Codable, Sendable { case open, resolved }
    /// How a moderator settled a report.
    public enum Outcome: String, Codable, Sendable, CaseIterable {
        case dismissed
        case contentRemoved = "content_removed"
        case userSuspended = "user_suspended"
        case other
    }

    /// A decimal string.
    public var id: String
    /// Who reported it; absent once that account was deleted.
    public var reporterId: UserID?
    public var target: Target
    public var conversationId: ConversationID?
    public var messageId: String?
    /// The reported user, or the reported message's sender.
    public var userId: UserID?
    public var reason: ReportReason
    public var note: String?
    /// The message as it was when reported: kept even when it is recalled later.
    public var snapshot: Message?
    public var status: Status
    public var assigneeId: UserID?
    public var outcome: Outcome?
    public var resolvedBy: UserID?
    public var resolvedAt: Int64?
    public var createdAt: Int64

    public init(id: String, reporterId: UserID?, target: Target, conversationId: ConversationID?, messageId: String?,
                userId: UserID?, reason: ReportReason, note: String?, snapshot: Message?, status: Status = .open,
                assigneeId: UserID? = nil, outcome: Outcome? = nil, resolvedBy: UserID? = nil, resolvedAt: Int64? = nil,
                createdAt: Int64) {
        self.id = id
        self.reporterId = reporterId
        self.target = target
        self.conversationId = conversationId
        self.messageId = messageId
        self.userId = userId
        self.reason = reason
        self.note = note
        self.snapshot = snapshot
        self.status = status
        self.assigneeId = assigneeId
        self.outcome = outcome
        self.resolvedBy = resolvedBy
        self.resolvedAt = resolvedAt
        self.createdAt = createdAt
    }
}
