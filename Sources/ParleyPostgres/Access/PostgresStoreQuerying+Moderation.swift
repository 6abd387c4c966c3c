import ParleyCore
import ParleyProtocol
import ParleyStoreSupport

// `StoreReader`: the admin role, suspensions, reports, the audit log, the server's counts
// (as SQLite's).
extension PostgresStoreQuerying {
    func isAdmin(_ user: UserID) throws -> Bool {
        try queryFirst("isAdmin", "SELECT 1 FROM admins WHERE user_id = $1", user.rawValue) { _ in true } ?? false
    }

    func suspension(of user: UserID) throws -> Suspension? {
        try queryFirst("suspension(of:)", "SELECT \(Suspension.selectColumns) FROM suspensions WHERE user_id = $1",
                       user.rawValue, row: Suspension.init(row:))
    }

    func report(id: Int64) throws -> Report? {
        try queryFirst("report(id:)", "SELECT \(Report.selectColumns) FROM reports WHERE id = $1", id, row: Report.init(row:))
    }

    func reports(_ filter: ReportFilter, limit: Int) throws -> [Report] {
        try query("reports", """
            SELECT \(Report.selectColumns) FROM reports
            WHERE ($1::text IS NULL OR status = $1::text) AND ($2::bigint IS NULL OR reported_id = $2::bigint)
              AND ($3::bigint IS NULL OR assignee_id = $3::bigint) AND ($4::text IS NULL OR reason = $4::text)
              AND ($5::bigint IS NULL OR id < $5::bigint)
            ORDER BY id DESC LIMIT $6
            """, filter.status?.rawValue, filter.userID?.rawValue, filter.assigneeID?.rawValue, filter.reason?.rawValue,
            filter.before, Int64(limit), row: Report.init(row:))
    }

    func auditEntries(before: Int64?, limit: Int) throws -> [AuditEntry] {
        try query("auditEntries", """
            SELECT \(AuditEntry.selectColumns) FROM audit_log WHERE ($1::bigint IS NULL OR id < $1::bigint) ORDER BY id DESC LIMIT $2
            """, before, Int64(limit), row: AuditEntry.init(row:))
    }

    func storeCounts(since: Int64) throws -> StoreCounts {
        try queryFirst("storeCounts", """
            SELECT (SELECT count(*) FROM users WHERE deleted_at IS NULL),
                   (SELECT count(DISTINCT user_id) FROM sessions WHERE last_seen_at >= $1),
                   (SELECT count(*) FROM messages WHERE created_at >= $1),
                   (SELECT count(*) FROM reports WHERE status = 'open'),
                   pg_database_size(current_database())::bigint
            """, since) { row in
            StoreCounts(users: try row.int(0), activeSince: try row.int(1), messagesSince: try row.int(2),
                        openReports: try row.int(3), storeBytes: try row.int64(4))
        } ?? StoreCounts(users: 0, activeSince: 0, messagesSince: 0, openReports: 0, storeBytes: 0)
    }

    func adminUserSearch(_ text: String, limit: Int) throws -> [StoredUser] {
        let escaped = text.lowercased().replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
        return try query("adminUserSearch", """
            SELECT \(StoredUser.selectColumns) FROM users
            WHERE deleted_at IS NULL
              AND (id = $1 OR phone = $2 OR username_key LIKE $3 OR lower(nickname) LIKE $3)
            ORDER BY id LIMIT $4
            """, Int64(text) ?? -1, text, "%" + escaped + "%", Int64(limit), row: StoredUser.init(row:))
    }
}
