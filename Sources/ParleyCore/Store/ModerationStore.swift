public import ParleyProtocol

/// A report before the store has given it an id.
public struct NewReport: Sendable, Equatable {
    public var reporterID: UserID
    public var target: Report.Target
    public var conversationID: ConversationID?
    public var messageID: String?
    public var userID: UserID?
    public var reason: ReportReason
    public var note: String?
    public var snapshot: Message?
    public var createdAt: Int64

    public init(reporterID: UserID, target: Report.Target, conversationID: ConversationID?, messageID: String?,
                userID: UserID?, reason: ReportReason, note: String?, snapshot: Message?, createdAt: Int64) {
        self.reporterID = reporterID
        self.target = target
        self.conversationID = conversationID
        self.messageID = messageID
        self.userID = userID
        self.reason = reason
        self.note = note
        self.snapshot = snapshot
        self.createdAt = createdAt
    }
}

/// Which reports to list (`ModerationReader.reports`).
public struct ReportFilter: Sendable, Equatable {
    public var status: Report.Status?
    /// Reports about this user (reported, or the reported message's sender).
    public var userID: UserID?
    public var assigneeID: UserID?
    public var reason: ReportReason?
    /// Only ids below this one (the page cursor).
    public var before: Int64?

    public init(status: Report.Status? = nil, userID: UserID? = nil, assigneeID: UserID? = nil,
                reason: ReportReason? = nil, before: Int64? = nil) {
        self.status = status
        self.userID = userID
        self.assigneeID = assigneeID
        self.reason = reason
        self.before = before
    }
}

/// Counts for the server's statistics, read in one snapshot.
public struct StoreCounts: Sendable, Equatable {
    public var users: Int
    public var activeSince: Int
    public var messagesSince: Int
    public var openReports: Int
    public var storeBytes: Int64

    public init(users: Int, activeSince: Int, messagesSince: Int, openReports: Int, storeBytes: Int64) {
        self.users = users
        self.activeSince = activeSince
        self.messagesSince = messagesSince
        self.openReports = openReports
        self.storeBytes = storeBytes
    }
}

/// Moderation queries (part of `StoreReader`): the admin role, suspensions, reports, the
/// audit log and the server's counts.
public protocol ModerationReader {
    func isAdmin(_ user: UserID) throws -> Bool
    /// The user's suspension, ended ones included (the caller knows the time).
    func suspension(of user: UserID) throws -> Suspension?
    func report(id: Int64) throws -> Report?
    /// Reports matching `filter`, newest first.
    func reports(_ filter: ReportFilter, limit: Int) throws -> [Report]
    /// Audit rows with ids below `before` (nil: the newest), newest first.
    func auditEntries(before: Int64?, limit: Int) throws -> [AuditEntry]
    /// Accounts (not deleted), users with a session used since `since`, messages since
    /// `since`, open reports, and the database's size.
    func storeCounts(since: Int64) throws -> StoreCounts
    /// Live accounts whose username or nickname contains `query` (any case), or whose id
    /// or phone is `query`; by id.
    func adminUserSearch(_ query: String, limit: Int) throws -> [StoredUser]
}

/// Moderation changes (part of `StoreWriter`). There is no statement that changes or
/// removes an audit row: the log only grows.
public protocol ModerationWriter: ModerationReader {
    /// Grants (`true`) or revokes the admin role.
    func setAdmin(_ user: UserID, _ admin: Bool, at time: Int64) throws
    /// Sets (or replaces) the user's suspension.
    func saveSuspension(_ suspension: Suspension, of user: UserID) throws
    /// Lifts the user's suspension; returns whether there was one.
    func deleteSuspension(of user: UserID) throws -> Bool
    func insertReport(_ report: NewReport) throws -> Report
    /// Writes a report's handling (status, assignee, outcome, resolution).
    func updateReport(_ report: Report) throws
    /// Appends one row to the audit log. `actor` names who acted when no administrator's
    /// account did (`local admin (uid N)` on the server's machine).
    func appendAudit(adminID: UserID?, actor: String?, action: String, target: String, reason: String?, at time: Int64) throws -> AuditEntry
}

extension ModerationWriter {
    /// Appends one row to the audit log for an administrator's account (or nobody named).
    public func appendAudit(adminID: UserID?, action: String, target: String, reason: String?, at time: Int64) throws -> AuditEntry {
        try appendAudit(adminID: adminID, actor: nil, action: action, target: target, reason: reason, at: time)
    }
}
