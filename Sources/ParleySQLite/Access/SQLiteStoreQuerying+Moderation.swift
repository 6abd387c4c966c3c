import ParleyCore
import ParleyProtocol
import ParleySQL
import ParleyStoreSupport

// `StoreReader`: the admin role, suspensions, reports, the audit log, the server's counts.
extension SQLiteStoreQuerying {
    func isAdmin(_ user: UserID) throws -> Bool {
        try StoreError.mapping("isAdmin") {
            try connection.queryFirst("SELECT 1 FROM admins WHERE user_id = ?", user.rawValue) { _ in true } ?? false
        }
    }

    func suspension(of user: UserID) throws -> Suspension? {
        try StoreError.mapping("suspension(of:)") {
            try connection.queryFirst("SELECT \(Suspension.selectColumns) FROM suspensions WHERE user_id = ?",
                                      user.rawValue, row: Suspension.init(row:))
        }
    }

    func report(id: Int64) throws -> Report? {
        try StoreError.mapping("report(id:)") {
            try connection.queryFirst("SELECT \(Report.selectColumns) FROM reports WHERE id = ?", id, row: Report.init(row:))
        }
    }

    func reports(_ filter: ReportFilter, limit: Int) throws -> [Report] {
        try StoreError.mapping("reports") {
            try connection.query("""
                SELECT \(Report.selectColumns) FROM reports
                WHERE (?1 IS NULL OR status = ?1) AND (?2 IS NULL OR reported_id = ?2) AND (?3 IS NULL OR assignee_id = ?3)
                  AND (?4 IS NULL OR reason = ?4) AND (?5 IS NULL OR id < ?5)
                ORDER BY id DESC LIMIT ?6
                """, filter.status?.rawValue, filter.userID?.rawValue, filter.assigneeID?.rawValue, filter.reason?.rawValue,
                filter.before, limit, row: Report.init(row:))
        }
    }

    func auditEntries(before: Int64?, limit: Int) throws -> [AuditEntry] {
        try StoreError.mapping("auditEntries") {
            try connection.query("""
                SELECT \(AuditEntry.selectColumns) FROM audit_log WHERE (?1 IS NULL OR id < ?1) ORDER BY id DESC LIMIT ?2
                """, before, limit, row: AuditEntry.init(row:))
        }
    }

    func storeCounts(since: Int64) throws -> StoreCounts {
        try StoreError.mapping("storeCounts") {
            try connection.queryFirst("""
                SELECT (SELECT count(*) FROM users WHERE deleted_at IS NULL),
                       (SELECT count(DISTINCT user_id) FROM sessions WHERE last_seen_at >= ?1),
                       (SELECT count(*) FROM messages WHERE created_at >= ?1),
                       (SELECT count(*) FROM reports WHERE status = 'open'),
                       (SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size())
                """, since) { row in
                StoreCounts(users: try row.int(0), activeSince: try row.int(1), messagesSince: try row.int(2),
                            openReports: try row.int(3), storeBytes: try row.int64(4))
            } ?? StoreCounts(users: 0, activeSince: 0, messagesSince: 0, openReports: 0, storeBytes: 0)
        }
    }

    func adminUserSearch(_ query: String, limit: Int) throws -> [StoredUser] {
        try StoreError.mapping("adminUserSearch") {
            let escaped = query.lowercased().replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
            return try connection.query("""
                SELECT \(StoredUser.selectColumns) FROM users
                WHERE deleted_at IS NULL
                  AND (id = ?1 OR phone = ?2 OR username_key LIKE ?3 ESCAPE '\\' OR lower(nickname) LIKE ?3 ESCAPE '\\')
                ORDER BY id LIMIT ?4
                """, Int64(query) ?? -1, query, "%" + escaped + "%", limit, row: StoredUser.init(row:))
        }
    }
}
