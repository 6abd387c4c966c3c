// The admin API's bodies and answers (docs/protocol.md, "Admin API"). They travel over
// HTTP as JSON and through the local admin commands of `parley admin`.

/// A page of reports, newest first; `next` is the cursor of the following page.
public struct ReportPage: Codable, Sendable, Equatable {
    public var reports: [Report]
    public var next: String?
    public init(reports: [Report], next: String?) {
        self.reports = reports
        self.next = next
    }
}

/// `POST /v1/admin/reports/{id}/resolve`.
public struct ReportResolution: Codable, Sendable, Equatable {
    public var outcome: Report.Outcome
    public var reason: String?
    public init(outcome: Report.Outcome, reason: String? = nil) {
        self.outcome = outcome
        self.reason = reason
    }
}

/// `POST /v1/admin/reports/{id}/assign`: to an admin, or to nobody with no `assigneeId`.
public struct ReportAssignment: Codable, Sendable, Equatable {
    public var assigneeId: UserID?
    public init(assigneeId: UserID?) { self.assigneeId = assigneeId }
}

/// A suspension: no sign-in, no API call and no connection until `until` (nil: until an
/// administrator lifts it).
public struct Suspension: Codable, Sendable, Equatable {
    public var reason: String
    public var until: Int64?
    public var since: Int64
    /// The administrator who suspended (absent: the server's machine, `parley admin`).
    public var by: UserID?
    public init(reason: String, until: Int64?, since: Int64, by: UserID?) {
        self.reason = reason
        self.until = until
        self.since = since
        self.by = by
    }

    /// Whether it still holds at `time`.
    public func holds(at time: Int64) -> Bool { until.map { time < $0 } ?? true }
}

/// `POST /v1/admin/users/{id}/suspend`.
public struct SuspendRequest: Codable, Sendable, Equatable {
    public var reason: String
    /// Milliseconds since the epoch; absent: until lifted.
    public var until: Int64?
    public init(reason: String, until: Int64?) {
        self.reason = reason
        self.until = until
    }
}

/// The body of admin actions that only need a reason for the audit log (delete, disband,
/// remove a message, unsuspend).
public struct AdminReason: Codable, Sendable, Equatable {
    public var reason: String?
    public init(reason: String?) { self.reason = reason }
}

/// `POST /v1/admin/groups/{id}/owner`.
public struct OwnerChange: Codable, Sendable, Equatable {
    public var userId: UserID
    public var reason: String?
    public init(userId: UserID, reason: String?) {
        self.userId = userId
        self.reason = reason
    }
}

/// A user as administrators see them.
public struct AdminUser: Codable, Sendable, Equatable {
    public var account: Account
    public var admin: Bool
    public var suspension: Suspension?
    /// Signed-in devices.
    public var sessions: Int
    public var online: Bool
    public init(account: Account, admin: Bool, suspension: Suspension?, sessions: Int, online: Bool) {
        self.account = account
        self.admin = admin
        self.suspension = suspension
        self.sessions = sessions
        self.online = online
    }
}

/// `GET /v1/admin/users?q=`.
public struct AdminUserList: Codable, Sendable, Equatable {
    public var users: [AdminUser]
    public init(users: [AdminUser]) { self.users = users }
}

/// A group or room as administrators see it.
public struct AdminConversation: Codable, Sendable, Equatable {
    public var id: ConversationID
    public var kind: ConversationKind
    public var name: String?
    public var ownerId: UserID?
    public var memberCount: Int
    public var lastSeq: Int64
    public var createdAt: Int64
    public init(id: ConversationID, kind: ConversationKind, name: String?, ownerId: UserID?, memberCount: Int,
                lastSeq: Int64, createdAt: Int64) {
        self.id = id
        self.kind = kind
        self.name = name
        self.ownerId = ownerId
        self.memberCount = memberCount
        self.lastSeq = lastSeq
        self.createdAt = createdAt
    }
}

/// A reported message with the messages around it, as they are now.
public struct AdminMessageContext: Codable, Sendable, Equatable {
    public var message: Message?
    public var before: [Message]
    public var after: [Message]
    public init(message: Message?, before: [Message], after: [Message]) {
        self.message = message
        self.before = before
        self.after = after
    }
}

/// One row of the audit log: who did what to what, why and when. Rows are only ever added.
public struct AuditEntry: Codable, Sendable, Equatable {
    /// A decimal string, increasing.
    public var id: String
    /// The administrator; absent for `parley admin` on the server's machine.
    public var adminId: UserID?
    /// e.g. `user.suspend`, `report.resolve`, `admin.grant`.
    public var action: String
    /// What it acted on, e.g. `user:12`, `group:3`, `message:3/55`, `report:9`.
    public var target: String
    public var reason: String?
    public var createdAt: Int64
    /// Who acted when no administrator's account did, e.g. `local admin (uid 1000)` for the
    /// server's local admin socket; absent for the admin API's rows.
    public var actor: String?
    public init(id: String, adminId: UserID?, action: String, target: String, reason: String?, createdAt: Int64,
                actor: String? = nil) {
        self.id = id
        self.adminId = adminId
        self.action = action
        self.target = target
        self.reason = reason
        self.createdAt = createdAt
        self.actor = actor
    }
}

/// `GET /v1/admin/audit`: newest first.
public struct AuditPage: Codable, Sendable, Equatable {
    public var entries: [AuditEntry]
    public var next: String?
    public init(entries: [AuditEntry], next: String?) {
        self.entries = entries
        self.next = next
    }
}

/// `GET /v1/admin/stats`.
public struct ServerStats: Codable, Sendable, Equatable {
    public var users: Int
    /// Users with a session used since midnight UTC.
    public var activeToday: Int
    /// Open WebSocket and Jabber connections on this server.
    public var connections: Int
    /// Messages stored since midnight UTC (notices included).
    public var messagesToday: Int
    public var storeBytes: Int64
    public var openReports: Int
    public init(users: Int, activeToday: Int, connections: Int, messagesToday: Int, storeBytes: Int64, openReports: Int) {
        self.users = users
        self.activeToday = activeToday
        self.connections = connections
        self.messagesToday = messagesToday
        self.storeBytes = storeBytes
        self.openReports = openReports
    }
}

/// What the server tells a signed-in administrator about their role (`GET /v1/admin/me`).
public struct AdminStatus: Codable, Sendable, Equatable {
    public var admin: Bool
    public init(admin: Bool) { self.admin = admin }
}
