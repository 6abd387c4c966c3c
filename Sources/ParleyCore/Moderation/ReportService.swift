public import ParleyProtocol

/// Reports (`report.create`): any user reports a message, a user or a conversation they can
/// see; the reported message is copied into the report as it is now, so a later recall does
/// not hide it from moderators.
public final class ReportService: Sendable {
    let context: MessagingContext
    let rules: ModerationRules
    private let perUser: SlidingWindowLimiter

    public init(context: MessagingContext, rules: ModerationRules) {
        self.context = context
        self.rules = rules
        perUser = SlidingWindowLimiter(limit: rules.reportsPerHour, windowSeconds: 3600)
    }

    public func create(by user: UserID, _ parameters: ReportParameters) async throws(ProtocolError) -> ReportReceipt {
        let note = parameters.note.flatMap { $0.isEmpty ? nil : $0 }
        if let note, note.utf8.count > rules.reportNoteBytes {
            throw ProtocolError(.invalidField, "the note may have at most \(rules.reportNoteBytes) bytes", field: "note")
        }
        let target: Report.Target
        switch (parameters.conversationId, parameters.messageId, parameters.userId) {
        case (.some, .some, nil): target = .message
        case (nil, nil, .some): target = .user
        case (.some, nil, nil): target = .conversation
        default:
            throw ProtocolError(.invalidField, "report one thing: a message (conversationId and messageId), a user (userId) or a conversation (conversationId)",
                                field: "messageId")
        }
        let now = context.clock()
        if let wait = perUser.attempt(String(user.rawValue), now: now) {
            throw ProtocolError(.rateLimited, "too many reports; try again later", retryAfterSeconds: wait)
        }
        let rooms = context.rooms
        let report = try await context.gateway.write { writer -> Report in
            var reported = parameters.userId
            var snapshot: Message?
            switch target {
            case .message:
                guard let conversation = parameters.conversationId, let messageID = parameters.messageId else { throw ProtocolError(.badRequest, "") }
                _ = try ConversationAccess.readable(conversation, by: user, reader: writer, rooms: rooms)
                let message = try ConversationAccess.target(messageID, in: conversation, seenBy: user, reader: writer)
                reported = message.sender
                snapshot = message
            case .conversation:
                guard let conversation = parameters.conversationId else { throw ProtocolError(.badRequest, "") }
                _ = try ConversationAccess.readable(conversation, by: user, reader: writer, rooms: rooms)
            case .user:
                guard let id = reported, id != user, let found = try writer.user(id: id), found.deletedAt == nil else {
                    throw ProtocolError(.notFound, "no such user", field: "userId")
                }
            }
            return try writer.insertReport(NewReport(reporterID: user, target: target, conversationID: parameters.conversationId,
                                                     messageID: parameters.messageId, userID: reported, reason: parameters.reason,
                                                     note: note, snapshot: snapshot, createdAt: now))
        }
        return ReportReceipt(id: report.id, createdAt: report.createdAt)
    }
}
