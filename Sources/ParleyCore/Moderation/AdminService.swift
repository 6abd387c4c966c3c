public import ParleyProtocol

/// What the server's administrators may do (docs/protocol.md, "Admin API"), for the HTTP
/// admin API and `parley admin` alike. Every action writes one audit row in the same write
/// as its change where the change is one write, else right after it; `admin` is nil for
/// `parley admin` on the server's machine. Callers check the role first (`requireAdmin`).
public final class AdminService: Sendable {
    let accounts: AccountService
    let context: MessagingContext
    let groups: GroupService
    let deletion: AccountDeletionService
    let rules: ModerationRules
    /// Closes a suspended or deleted user's connections; nil when no server runs (the
    /// command line on the data directory).
    let registry: (any ConnectionRegistry)?
    /// Who acts when no administrator's account does (`admin` nil), as the audit log names
    /// them: `local admin (uid N)` for the server's machine.
    let localActor: String?

    public init(accounts: AccountService, context: MessagingContext, groups: GroupService, deletion: AccountDeletionService,
                rules: ModerationRules, registry: (any ConnectionRegistry)?, localActor: String? = nil) {
        self.accounts = accounts
        self.context = context
        self.groups = groups
        self.deletion = deletion
        self.rules = rules
        self.registry = registry
        self.localActor = localActor
    }

    /// The same service, whose actions without an administrator's account are written to
    /// the audit log as `actor`'s (the local admin socket names the peer's uid so).
    public func acting(as actor: String) -> AdminService {
        AdminService(accounts: accounts, context: context, groups: groups, deletion: deletion, rules: rules, registry: registry,
                     localActor: actor)
    }

    /// The audit row's actor: the local one when no administrator's account acts.
    private func auditActor(_ admin: UserID?) -> String? {
        admin == nil ? localActor : nil
    }

    // MARK: The role

    /// Throws `not_admin` unless `user` holds the admin role.
    public func requireAdmin(_ user: UserID) async throws(ProtocolError) {
        guard try await context.gateway.read({ reader in try reader.isAdmin(user) }) else {
            throw ProtocolError(.notAdmin, "this needs an account with the admin role (granted with `parley admin grant` on the server)")
        }
    }

    public func isAdmin(_ user: UserID) async throws(ProtocolError) -> Bool {
        try await context.gateway.read { reader in try reader.isAdmin(user) }
    }

    /// Grants or revokes the role. Only `parley admin` calls this: there is no HTTP route.
    public func setAdmin(username: String, _ admin: Bool) async throws(ProtocolError) -> UserID {
        let now = context.clock()
        return try await context.gateway.write { writer in
            guard let user = try writer.user(username: username), user.deletedAt == nil else {
                throw ProtocolError(.notFound, "no user named '\(username)'")
            }
            try writer.setAdmin(user.id, admin, at: now)
            _ = try writer.appendAudit(adminID: nil, actor: self.localActor, action: admin ? "admin.grant" : "admin.revoke", target: "user:\(user.id)",
                                       reason: nil, at: now)
            return user.id
        }
    }

    // MARK: Users

    public func searchUsers(_ query: String) async throws(ProtocolError) -> AdminUserList {
        let trimmed = query.trimmingCharacters(in: " ")
        guard !trimmed.isEmpty, trimmed.utf8.count <= 200 else {
            throw ProtocolError(.invalidField, "search for 1 to 200 bytes of text", field: "q")
        }
        let limit = rules.adminPageSize
        let found = try await context.gateway.read { reader in
            try reader.adminUserSearch(trimmed, limit: limit).map { try Self.view($0, reader: reader) }
        }
        return AdminUserList(users: found.map { online($0) })
    }

    public func user(_ id: UserID) async throws(ProtocolError) -> AdminUser {
        online(try await context.gateway.read { reader in
            guard let user = try reader.user(id: id) else { throw ProtocolError(.notFound, "no user with id \(id)") }
            return try Self.view(user, reader: reader)
        })
    }

    /// Suspends `user` until `request.until` (nil: until lifted) and closes every connection
    /// of theirs at once; their sessions stay, refused with `suspended` until it ends.
    public func suspend(_ user: UserID, _ request: SuspendRequest, by admin: UserID?) async throws(ProtocolError) -> AdminUser {
        let reason = try checkReason(request.reason, required: true) ?? ""
        let now = context.clock()
        if let until = request.until, until <= now {
            throw ProtocolError(.invalidField, "'until' must be in the future (milliseconds since the epoch)", field: "until")
        }
        if user == admin { throw ProtocolError(.invalidField, "an administrator may not suspend themself", field: "userId") }
        let sessions = try await context.gateway.write { writer in
            guard let found = try writer.user(id: user), found.deletedAt == nil else { throw ProtocolError(.notFound, "no user with id \(user)") }
            try writer.saveSuspension(Suspension(reason: reason, until: request.until, since: now, by: admin), of: user)
            _ = try writer.appendAudit(adminID: admin, actor: self.auditActor(admin), action: "user.suspend", target: "user:\(user)", reason: reason, at: now)
            return try writer.sessions(of: user).map(\.id)
        }
        closeConnections(of: user, sessions: sessions)
        return try await self.user(user)
    }

    public func unsuspend(_ user: UserID, reason: String?, by admin: UserID?) async throws(ProtocolError) -> AdminUser {
        let reason = try checkReason(reason, required: false)
        let now = context.clock()
        try await context.gateway.write { writer in
            guard try writer.deleteSuspension(of: user) else { throw ProtocolError(.notFound, "that user is not suspended") }
            _ = try writer.appendAudit(adminID: admin, actor: self.auditActor(admin), action: "user.unsuspend", target: "user:\(user)", reason: reason, at: now)
        }
        return try await self.user(user)
    }

    /// Signs the user out everywhere.
    public func revokeSessions(of user: UserID, reason: String?, by admin: UserID?) async throws(ProtocolError) -> Int {
        let reason = try checkReason(reason, required: false)
        let now = context.clock()
        let ended = try await context.gateway.write { writer in
            let ended = try writer.deleteSessions(of: user, keeping: nil)
            _ = try writer.appendAudit(adminID: admin, actor: self.auditActor(admin), action: "user.revoke_sessions", target: "user:\(user)", reason: reason, at: now)
            return ended
        }
        closeConnections(of: user, sessions: ended)
        return ended.count
    }

    /// Deletes the account exactly as its owner would (`AccountDeletionService`).
    public func deleteUser(_ user: UserID, reason: String?, by admin: UserID?) async throws(ProtocolError) {
        let reason = try checkReason(reason, required: true)
        if user == admin { throw ProtocolError(.invalidField, "delete your own account from its settings", field: "userId") }
        let found = try await context.gateway.read { reader in try reader.user(id: user) }
        guard let found, found.deletedAt == nil else { throw ProtocolError(.notFound, "no user with id \(user)") }
        let ended = try await deletion.erase(found)
        closeConnections(of: user, sessions: ended)
        try await audit(admin, "user.delete", "user:\(user)", reason)
    }

    // MARK: Groups and rooms

    public func conversation(_ id: ConversationID) async throws(ProtocolError) -> AdminConversation {
        try await context.gateway.read { reader in
            guard let conversation = try reader.conversation(id: id), conversation.kind != .user else {
                throw ProtocolError(.notFound, "no group or room with id \(id)")
            }
            let count = conversation.kind == .room ? 0 : try reader.memberCount(of: id)
            return AdminConversation(id: id, kind: conversation.kind, name: conversation.name, ownerId: conversation.ownerID,
                                     memberCount: count, lastSeq: conversation.lastSeq, createdAt: conversation.createdAt)
        }
    }

    public func disband(_ group: ConversationID, reason: String?, by admin: UserID?) async throws(ProtocolError) {
        let reason = try checkReason(reason, required: true)
        try await groups.disbandAsAdministrator(group, by: admin)
        try await audit(admin, "group.disband", "group:\(group)", reason)
    }

    /// Hands the group to another member, as its owner would (`GroupService.transfer`).
    public func changeOwner(_ group: ConversationID, to heir: UserID, reason: String?, by admin: UserID?) async throws(ProtocolError) -> AdminConversation {
        let reason = try checkReason(reason, required: false)
        let owner = try await conversation(group).ownerId
        guard let owner else { throw ProtocolError(.notFound, "no group with id \(group)") }
        _ = try await groups.transfer(by: owner, MemberReference(conversationId: group, userId: heir))
        try await audit(admin, "group.change_owner", "group:\(group)", reason.map { "to user \(heir): \($0)" } ?? "to user \(heir)")
        return try await conversation(group)
    }

    // MARK: Messages

    /// A message as it is now, with up to `contextMessages` on each side.
    public func messageContext(_ conversation: ConversationID, _ messageID: String) async throws(ProtocolError) -> AdminMessageContext {
        let around = rules.contextMessages
        return try await context.gateway.read { reader in
            let message = try ConversationAccess.target(messageID, in: conversation, reader: reader, notices: true)
            let before = try reader.messages(in: conversation, before: message.seq, limit: around)
            let after = try reader.messages(in: conversation, after: message.seq, limit: around)
            return AdminMessageContext(message: message, before: before, after: after)
        }
    }

    /// Recalls a message as an administrator: its content is erased as a recall erases it,
    /// and members see "recalled" (`message.updated`) with the administrator as the actor.
    public func removeMessage(_ conversationID: ConversationID, _ messageID: String, reason: String?,
                              by admin: UserID?) async throws(ProtocolError) -> MessageUpdate {
        let reason = try checkReason(reason, required: true)
        let now = context.clock()
        let rules = context.rules
        let (update, recipients, kind) = try await context.gateway.write { writer in
            guard let conversation = try writer.conversation(id: conversationID) else { throw ProtocolError(.notFound, "no such conversation") }
            var message = try ConversationAccess.target(messageID, in: conversationID, reader: writer)
            guard message.recalled == nil else { throw ProtocolError(.invalidField, "the message was recalled already", field: "messageId") }
            if let raw = Int64(message.id) { _ = try writer.deletePin(of: raw, in: conversationID) }
            try writer.deleteMentions(in: conversationID, seq: message.seq)
            message.text = nil
            message.image = nil
            message.replyTo = nil
            message.mentions = nil
            message.mentionsAll = nil
            message.reactions = nil
            // The mark names who recalled; for the command line, the sender's own id keeps
            // the field filled (clients show "recalled" either way).
            message.recalled = RecallMark(by: admin ?? message.sender ?? UserID(0), at: now)
            try writer.replaceMessage(message)
            let event = try writer.appendMessage(NewMessage(conversationID: conversationID, sender: nil, clientID: nil, kind: .system,
                                                            system: SystemNotice(type: .messageRecalled, actor: admin, messageId: messageID),
                                                            createdAt: now))
            _ = try writer.appendAudit(adminID: admin, actor: self.auditActor(admin), action: "message.remove", target: "message:\(conversationID)/\(messageID)",
                                       reason: reason, at: now)
            let recipients = conversation.kind == .room ? [] : try writer.memberIDs(of: conversationID)
            return (MessageUpdate(event: event, message: try MessageActionService.shown(message, reader: writer, rules: rules)),
                    recipients, conversation.kind)
        }
        let targets = kind == .room ? context.rooms.occupants(of: conversationID) : recipients
        context.delivery.deliver(.messageUpdated(update), to: targets, excluding: nil)
        return update
    }

    // MARK: Reports

    public func reports(_ filter: ReportFilter) async throws(ProtocolError) -> ReportPage {
        let limit = rules.adminPageSize
        let reports = try await context.gateway.read { reader in try reader.reports(filter, limit: limit + 1) }
        let page = Array(reports.prefix(limit))
        return ReportPage(reports: page, next: reports.count > limit ? page.last?.id : nil)
    }

    public func report(_ id: String) async throws(ProtocolError) -> Report {
        guard let raw = Int64(id) else { throw ProtocolError(.notFound, "no report with id \(id)") }
        guard let report = try await context.gateway.read({ reader in try reader.report(id: raw) }) else {
            throw ProtocolError(.notFound, "no report with id \(id)")
        }
        return report
    }

    public func assign(_ id: String, _ assignment: ReportAssignment, by admin: UserID?) async throws(ProtocolError) -> Report {
        try await changeReport(id, action: "report.assign", reason: assignment.assigneeId.map { "to user \($0)" } ?? "to nobody",
                               by: admin) { report, reader in
            if let assignee = assignment.assigneeId, try !reader.isAdmin(assignee) {
                throw ProtocolError(.invalidField, "reports are assigned to administrators", field: "assigneeId")
            }
            report.assigneeId = assignment.assigneeId
        }
    }

    public func resolve(_ id: String, _ resolution: ReportResolution, by admin: UserID?) async throws(ProtocolError) -> Report {
        let reason = try checkReason(resolution.reason, required: false)
        let now = context.clock()
        return try await changeReport(id, action: "report.resolve", reason: [resolution.outcome.rawValue, reason].compactMap { $0 }.joined(separator: ": "),
                                      by: admin) { report, _ in
            guard report.status == .open else { throw ProtocolError(.invalidField, "the report is resolved already", field: "id") }
            report.status = .resolved
            report.outcome = resolution.outcome
            report.resolvedBy = admin
            report.resolvedAt = now
        }
    }

    private func changeReport(_ id: String, action: String, reason: String?, by admin: UserID?,
                              change: @escaping @Sendable (inout Report, StoreReader) throws -> Void) async throws(ProtocolError) -> Report {
        guard let raw = Int64(id) else { throw ProtocolError(.notFound, "no report with id \(id)") }
        let now = context.clock()
        return try await context.gateway.write { writer in
            guard var report = try writer.report(id: raw) else { throw ProtocolError(.notFound, "no report with id \(id)") }
            try change(&report, writer)
            try writer.updateReport(report)
            _ = try writer.appendAudit(adminID: admin, actor: self.auditActor(admin), action: action, target: "report:\(id)", reason: reason, at: now)
            return report
        }
    }

    // MARK: The audit log and statistics

    public func audit(before cursor: String?) async throws(ProtocolError) -> AuditPage {
        let limit = rules.adminPageSize
        let before = cursor.flatMap { Int64($0) }
        let entries = try await context.gateway.read { reader in try reader.auditEntries(before: before, limit: limit + 1) }
        let page = Array(entries.prefix(limit))
        return AuditPage(entries: page, next: entries.count > limit ? page.last?.id : nil)
    }

    /// The store's counts since midnight UTC, with `connections` as the caller counts them.
    public func stats(connections: Int) async throws(ProtocolError) -> ServerStats {
        let now = context.clock()
        let midnight = now - now % 86_400_000
        let counts = try await context.gateway.read { reader in try reader.storeCounts(since: midnight) }
        return ServerStats(users: counts.users, activeToday: counts.activeSince, connections: connections,
                           messagesToday: counts.messagesSince, storeBytes: counts.storeBytes, openReports: counts.openReports)
    }

    // MARK: Helpers

    private func audit(_ admin: UserID?, _ action: String, _ target: String, _ reason: String?) async throws(ProtocolError) {
        let now = context.clock()
        _ = try await context.gateway.write { writer in
            try writer.appendAudit(adminID: admin, actor: self.auditActor(admin), action: action, target: target, reason: reason, at: now)
        }
    }

    private func checkReason(_ reason: String?, required: Bool) throws(ProtocolError) -> String? {
        let trimmed = reason?.trimmingCharacters(in: " ")
        guard let trimmed, !trimmed.isEmpty else {
            if required { throw ProtocolError(.missingField, "give a reason: it goes into the audit log", field: "reason") }
            return nil
        }
        guard trimmed.utf8.count <= rules.adminReasonBytes else {
            throw ProtocolError(.invalidField, "the reason may have at most \(rules.adminReasonBytes) bytes", field: "reason")
        }
        return trimmed
    }

    /// Closes every connection of `user`: the WebSockets of each session and the Jabber
    /// streams that signed in with the password, on every server of a cluster.
    private func closeConnections(of user: UserID, sessions: [String]) {
        guard let registry else { return }
        for id in sessions + [AuthenticatedSession.passwordSignIn] {
            registry.closeConnections(of: user, signedInWith: id)
        }
    }

    private func online(_ user: AdminUser) -> AdminUser {
        var user = user
        user.online = context.delivery.isOnline(user.account.profile.id)
        return user
    }

    static func view(_ user: StoredUser, reader: StoreReader) throws -> AdminUser {
        AdminUser(account: user.account, admin: try reader.isAdmin(user.id), suspension: try reader.suspension(of: user.id),
                  sessions: try reader.sessions(of: user.id).count, online: false)
    }
}
