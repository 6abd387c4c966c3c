import ParleyCore
@testable import ParleyPostgres
import ParleyProtocol
@testable import ParleySQLite
import TestSupport
import Testing

/// What moderation keeps: the admin role, suspensions, reports with their snapshot, the
/// append-only audit log and the server's counts.
@Suite struct StoreContractModerationTests {
    @Test(arguments: StoreBackend.available) func adminRoleAndSuspensionAreKeptAndLifted(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let people = try await insertUsers(store, ["ann", "bob"])
            let (ann, bob) = (people[0].id, people[1].id)
            try await store.write { writer in
                try writer.setAdmin(ann, true, at: 1)
                try writer.setAdmin(ann, true, at: 2)
                try writer.saveSuspension(Suspension(reason: "spam", until: 500, since: 10, by: ann), of: bob)
            }
            #expect(try await store.read { try $0.isAdmin(ann) })
            #expect(try await !store.read { try $0.isAdmin(bob) })
            #expect(try await store.read { try $0.suspension(of: bob) } == Suspension(reason: "spam", until: 500, since: 10, by: ann))
            try await store.write { writer in
                try writer.saveSuspension(Suspension(reason: "again", until: nil, since: 20, by: nil), of: bob)
            }
            #expect(try await store.read { try $0.suspension(of: bob) } == Suspension(reason: "again", until: nil, since: 20, by: nil))
            let lifted = try await store.write { writer in
                try writer.setAdmin(ann, false, at: 3)
                return [try writer.deleteSuspension(of: bob), try writer.deleteSuspension(of: bob)]
            }
            #expect(lifted == [true, false])
            #expect(try await !store.read { try $0.isAdmin(ann) })
            #expect(try await store.read { try $0.suspension(of: bob) } == nil)
        }
    }

    @Test(arguments: StoreBackend.available) func reportsKeepTheirSnapshotAndFilterByStatusAndUser(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let people = try await insertUsers(store, ["ann", "bob", "cy"])
            let (ann, bob, cy) = (people[0].id, people[1].id, people[2].id)
            let snapshot = Message(id: "77", conversationId: ConversationID(5), seq: 3, sender: bob, clientId: "c", kind: .text,
                                   text: "buy now", createdAt: 9)
            let (first, second) = try await store.write { writer in
                (try writer.insertReport(NewReport(reporterID: ann, target: .message, conversationID: ConversationID(5), messageID: "77",
                                                   userID: bob, reason: .spam, note: "ads", snapshot: snapshot, createdAt: 10)),
                 try writer.insertReport(NewReport(reporterID: ann, target: .user, conversationID: nil, messageID: nil,
                                                   userID: cy, reason: .abuse, note: nil, snapshot: nil, createdAt: 11)))
            }
            #expect(Int64(second.id)! > Int64(first.id)!)
            let read = try #require(try await store.read { try $0.report(id: Int64(first.id)!) })
            #expect(read == first)
            #expect(read.snapshot?.text == "buy now" && read.status == .open)
            #expect(try await store.read { try $0.reports(ReportFilter(), limit: 10) }.map(\.id) == [second.id, first.id])
            #expect(try await store.read { try $0.reports(ReportFilter(userID: bob), limit: 10) }.map(\.id) == [first.id])
            #expect(try await store.read { try $0.reports(ReportFilter(reason: .abuse), limit: 10) }.map(\.id) == [second.id])
            #expect(try await store.read { try $0.reports(ReportFilter(before: Int64(second.id)), limit: 10) }.map(\.id) == [first.id])

            var resolved = first
            resolved.status = .resolved
            resolved.assigneeId = ann
            resolved.outcome = .contentRemoved
            resolved.resolvedBy = ann
            resolved.resolvedAt = 20
            let written = resolved
            try await store.write { try $0.updateReport(written) }
            #expect(try await store.read { try $0.report(id: Int64(first.id)!) } == resolved)
            #expect(try await store.read { try $0.reports(ReportFilter(status: .open), limit: 10) }.map(\.id) == [second.id])
            #expect(try await store.read { try $0.reports(ReportFilter(assigneeID: ann), limit: 10) }.map(\.id) == [first.id])
            #expect(try await store.read { try $0.storeCounts(since: 0) }.openReports == 1)
        }
    }

    @Test(arguments: StoreBackend.available) func theAuditLogOnlyGrows(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let ann = try await insertUsers(store, ["ann"])[0].id
            let entries = try await store.write { writer in
                [try writer.appendAudit(adminID: ann, action: "user.suspend", target: "user:2", reason: "spam", at: 5),
                 try writer.appendAudit(adminID: nil, action: "admin.grant", target: "user:1", reason: nil, at: 6),
                 try writer.appendAudit(adminID: nil, actor: "local admin (uid 1000)", action: "user.unsuspend", target: "user:2",
                                        reason: nil, at: 7)]
            }
            // The local actor is kept for the row that named one, and only for it.
            #expect(entries.map(\.actor) == [nil, nil, "local admin (uid 1000)"])
            #expect(try await store.read { try $0.auditEntries(before: nil, limit: 10) } == entries.reversed())
            #expect(try await store.read { try $0.auditEntries(before: Int64(entries[1].id), limit: 10) } == [entries[0]])
            #expect(try await store.read { try $0.auditEntries(before: nil, limit: 1) }.first?.actor == "local admin (uid 1000)")
            // Not even SQL run through the store may change or remove a row.
            await #expect(throws: (any Error).self) {
                try await store.write { writer in try tamper(writer, "UPDATE audit_log SET reason = 'none'") }
            }
            await #expect(throws: (any Error).self) {
                try await store.write { writer in try tamper(writer, "DELETE FROM audit_log") }
            }
            #expect(try await store.read { try $0.auditEntries(before: nil, limit: 10) }.count == 3)
        }
    }

    @Test(arguments: StoreBackend.available) func countsAndAdminSearch(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let people = try await insertUsers(store, ["ann", "annie", "bob"])
            try await store.write { writer in
                var bob = try #require(try writer.user(id: people[2].id))
                bob.nickname = "Anna B"
                try writer.updateUser(bob)
                try writer.insertSession(StoredSession(id: "s1", userID: people[0].id, tokenHash: Array(repeating: 1, count: 32),
                                                       createdAt: 100, lastSeenAt: 100, userAgent: nil))
            }
            #expect(try await store.read { try $0.adminUserSearch("ANN", limit: 10) }.map(\.id) == people.map(\.id))
            #expect(try await store.read { try $0.adminUserSearch("nni", limit: 10) }.map(\.id) == [people[1].id])
            #expect(try await store.read { try $0.adminUserSearch(String(people[2].id.rawValue), limit: 10) }.map(\.id) == [people[2].id])
            #expect(try await store.read { try $0.adminUserSearch("%", limit: 10) }.isEmpty)
            let counts = try await store.read { try $0.storeCounts(since: 50) }
            #expect(counts.users == 3 && counts.activeSince == 1 && counts.messagesSince == 0 && counts.storeBytes > 0)
        }
    }
}

/// Runs SQL on the writer's own connection, past the store's methods: what the audit log's
/// triggers must refuse.
private func tamper(_ writer: StoreWriter, _ sql: String) throws {
    if let sqlite = writer as? SQLiteStoreWriter {
        _ = try sqlite.connection.run(sql)
    } else if let postgres = writer as? PostgresStoreWriter {
        try postgres.run("tamper", sql)
    } else {
        Issue.record("a store of an unknown kind")
    }
}
