import ParleyCore
import ParleyProtocol
import ParleySQL
import ParleyStoreSupport

// `StoreWriter`: the admin role, suspensions, reports and the audit log (added to only).
extension SQLiteStoreWriter {
    func setAdmin(_ user: UserID, _ admin: Bool, at time: Int64) throws {
        try StoreError.mapping("setAdmin") {
            if admin {
                _ = try connection.run("INSERT INTO admins (user_id, granted_at) VALUES (?, ?) ON CONFLICT (user_id) DO NOTHING",
                                       user.rawValue, time)
            } else {
                _ = try connection.run("DELETE FROM admins WHERE user_id = ?", user.rawValue)
            }
        }
    }

    func saveSuspension(_ suspension: Suspension, of user: UserID) throws {
        try StoreError.mapping("saveSuspension") {
            _ = try connection.run("""
                INSERT INTO suspensions (user_id, reason, until_at, since_at, by_id) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (user_id) DO UPDATE SET reason = excluded.reason, until_at = excluded.until_at,
                    since_at = excluded.since_at, by_id = excluded.by_id
                """, user.rawValue, suspension.reason, suspension.until, suspension.since, suspension.by?.rawValue)
        }
    }

    func deleteSuspension(of user: UserID) throws -> Bool {
        try StoreError.mapping("deleteSuspension") {
            try connection.run("DELETE FROM suspensions WHERE user_id = ?", user.rawValue) > 0
        }
    }

    func insertReport(_ report: NewReport) throws -> Report {
        let snapshot = try Report.encodeSnapshot(report.snapshot)
        return try StoreError.mapping("insertReport") {
            let id = try connection.queryFirst("""
                INSERT INTO reports (reporter_id, target, conversation_id, message_id, reported_id, reason, note, snapshot,
                                     status, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'open', ?) RETURNING id
                """, report.reporterID.rawValue, report.target.rawValue, report.conversationID?.rawValue, report.messageID,
                report.userID?.rawValue, report.reason.rawValue, report.note, snapshot, report.createdAt) { try $0.int64(0) }
            guard let id else { throw StoreError.failure("insertReport returned no id") }
            return Report(id: String(id), reporterId: report.reporterID, target: report.target, conversationId: report.conversationID,
                          messageId: report.messageID, userId: report.userID, reason: report.reason, note: report.note,
                          snapshot: report.snapshot, createdAt: report.createdAt)
        }
    }

    func updateReport(_ report: Report) throws {
        guard let id = Int64(report.id) else { throw StoreError.failure("updateReport: the id \(report.id) is not a number") }
        try StoreError.mapping("updateReport") {
            _ = try connection.run("""
                UPDATE reports SET status = ?, assignee_id = ?, outcome = ?, resolved_by = ?, resolved_at = ? WHERE id = ?
                """, report.status.rawValue, report.assigneeId?.rawValue, report.outcome?.rawValue, report.resolvedBy?.rawValue,
                report.resolvedAt, id)
        }
    }

    func appendAudit(adminID: UserID?, actor: String?, action: String, target: String, reason: String?, at time: Int64) throws -> AuditEntry {
        try StoreError.mapping("appendAudit") {
            let id = try connection.queryFirst("""
                INSERT INTO audit_log (admin_id, actor, action, target, reason, created_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id
                """, adminID?.rawValue, actor, action, target, reason, time) { try $0.int64(0) }
            guard let id else { throw StoreError.failure("appendAudit returned no id") }
            return AuditEntry(id: String(id), adminId: adminID, action: action, target: target, reason: reason, createdAt: time,
                              actor: actor)
        }
    }
}
