import FoundationEssentials
package import ParleyCore
package import ParleyProtocol

extension Report {
    /// The `reports` columns that `init(row:)` reads, in its order.
    package static let selectColumns = """
        id, reporter_id, target, conversation_id, message_id, reported_id, reason, note, snapshot, status, \
        assignee_id, outcome, resolved_by, resolved_at, created_at
        """

    /// A report from a row of `selectColumns`.
    package init<Row: StoreRow>(row: Row) throws {
        let id = try row.int64(0)
        guard let target = Target(rawValue: try row.string(2)), let reason = ReportReason(rawValue: try row.string(6)),
              let status = Status(rawValue: try row.string(9)) else {
            throw StoreError.failure("report \(id) has an unknown target, reason or status")
        }
        self.init(id: String(id),
                  reporterId: try row.optionalInt64(1).map { UserID($0) },
                  target: target,
                  conversationId: try row.optionalInt64(3).map { ConversationID($0) },
                  messageId: try row.optionalString(4),
                  userId: try row.optionalInt64(5).map { UserID($0) },
                  reason: reason,
                  note: try row.optionalString(7),
                  snapshot: try Self.decodeSnapshot(try row.optionalString(8), id: id),
                  status: status,
                  assigneeId: try row.optionalInt64(10).map { UserID($0) },
                  outcome: try row.optionalString(11).flatMap(Outcome.init(rawValue:)),
                  resolvedBy: try row.optionalInt64(12).map { UserID($0) },
                  resolvedAt: try row.optionalInt64(13),
                  createdAt: try row.int64(14))
    }

    /// The column text of a reported message's snapshot: the message as clients see it, in JSON.
    package static func encodeSnapshot(_ message: Message?) throws(StoreError) -> String? {
        guard let message else { return nil }
        do {
            return String(decoding: try JSONEncoder().encode(message), as: UTF8.self)
        } catch {
            throw StoreError.failure("cannot encode a report's snapshot as JSON")
        }
    }

    private static func decodeSnapshot(_ text: String?, id: Int64) throws(StoreError) -> Message? {
        guard let text else { return nil }
        do {
            return try JSONDecoder().decode(Message.self, from: Data(text.utf8))
        } catch {
            throw StoreError.failure("report \(id) has an unreadable snapshot")
        }
    }
}

extension AuditEntry {
    /// The `audit_log` columns that `init(row:)` reads, in its order.
    package static let selectColumns = "id, admin_id, action, target, reason, created_at, actor"

    package init<Row: StoreRow>(row: Row) throws {
        self.init(id: String(try row.int64(0)), adminId: try row.optionalInt64(1).map { UserID($0) }, action: try row.string(2),
                  target: try row.string(3), reason: try row.optionalString(4), createdAt: try row.int64(5),
                  actor: try row.optionalString(6))
    }
}

extension Suspension {
    /// The `suspensions` columns that `init(row:)` reads, in its order.
    package static let selectColumns = "reason, until_at, since_at, by_id"

    package init<Row: StoreRow>(row: Row) throws {
        self.init(reason: try row.string(0), until: try row.optionalInt64(1), since: try row.int64(2),
                  by: try row.optionalInt64(3).map { UserID($0) })
    }
}
