import ParleyCore
import ParleyProtocol
@testable import ParleyPostgres
@testable import ParleySQLite
import ParleySQL
import Testing

/// The message archive: every message but system notices, by creation time then id, read
/// per conversation by time and position both ways, across conversations, and counted; and
/// the plans of those reads (the partial index `messages_archive`, never a sort or a scan).
@Suite struct StoreContractArchiveTests {
    private struct Fixture {
        var ann: UserID
        var withBob: ConversationID
        var withCat: ConversationID
        var group: ConversationID
        /// By text.
        var sent: [String: Message]
    }

    /// Ann's 1:1 conversations with Bob and Cat and a group, with messages at chosen times
    /// (three at 300 ms, a system notice between).
    private func fixture(_ store: any Store) async throws -> Fixture {
        let people = try await insertUsers(store, ["ann", "bob", "cat"])
        let (ann, bob, cat) = (people[0].id, people[1].id, people[2].id)
        return try await store.write { writer in
            func conversation(_ new: NewConversation, _ members: [UserID]) throws -> ConversationID {
                let stored = try writer.insertConversation(new)
                for member in members {
                    try writer.saveMember(StoredMember(conversationID: stored.id, userID: member, role: .member, joinedAt: 1, readSeq: 0))
                }
                return stored.id
            }
            let withBob = try conversation(NewConversation(kind: .user, userA: ann, userB: bob, createdAt: 1), [ann, bob])
            let withCat = try conversation(NewConversation(kind: .user, userA: ann, userB: cat, createdAt: 1), [ann, cat])
            let group = try conversation(NewConversation(kind: .group, name: "Tea", ownerID: ann, createdAt: 1), [ann, bob])
            var sent: [String: Message] = [:]
            func text(_ conversation: ConversationID, _ sender: UserID, _ text: String, at time: Int64) throws {
                sent[text] = try writer.appendMessage(NewMessage(conversationID: conversation, sender: sender, clientID: text,
                                                                 kind: .text, text: text, createdAt: time))
            }
            try text(withBob, ann, "a1", at: 100)
            try text(withBob, bob, "a2", at: 200)
            _ = try writer.appendMessage(NewMessage(conversationID: withBob, sender: nil, clientID: nil, kind: .system,
                                                    system: SystemNotice(type: .friendAdded, actor: ann), createdAt: 250))
            try text(withBob, ann, "a3", at: 300)
            try text(withBob, bob, "a4", at: 300)
            try text(withCat, cat, "c1", at: 150)
            try text(withCat, ann, "c2", at: 300)
            try text(group, bob, "g1", at: 120)
            return Fixture(ann: ann, withBob: withBob, withCat: withCat, group: group, sent: sent)
        }
    }

    @Test(arguments: StoreBackend.available) func oneConversationByTimeAndPositionInEitherDirection(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let f = try await fixture(store)
            try await store.read { reader throws in
                func texts(_ range: ArchiveRange, limit: Int = 10) throws -> [String] {
                    try reader.archivedMessages(in: f.withBob, range, limit: limit).map { $0.text ?? "?" }
                }
                let a2 = try #require(ArchivePosition(f.sent["a2"]!))
                let a4 = try #require(ArchivePosition(f.sent["a4"]!))
                // No notices; oldest first in both directions.
                #expect(try texts(ArchiveRange()) == ["a1", "a2", "a3", "a4"])
                #expect(try texts(ArchiveRange(), limit: 2) == ["a1", "a2"])
                #expect(try texts(ArchiveRange(newest: true), limit: 2) == ["a3", "a4"])
                #expect(try texts(ArchiveRange(), limit: 0) == [])
                // Times are inclusive at both ends.
                #expect(try texts(ArchiveRange(start: 200, end: 300)) == ["a2", "a3", "a4"])
                #expect(try texts(ArchiveRange(start: 201, end: 299)) == [])
                // Positions are exclusive, and order messages of the same millisecond by id.
                #expect(try texts(ArchiveRange(after: a2)) == ["a3", "a4"])
                #expect(try texts(ArchiveRange(before: a4, newest: true), limit: 1) == ["a3"])
                #expect(try texts(ArchiveRange(after: a2, before: a4)) == ["a3"])
                #expect(try texts(ArchiveRange(start: 100, end: 250, after: a2)) == [])
                #expect(try reader.archivedMessageCount(in: f.withBob, start: nil, end: nil) == 4)
                #expect(try reader.archivedMessageCount(in: f.withBob, start: 200, end: 300) == 3)
                #expect(try reader.archivedMessageCount(in: f.withBob, start: 301, end: nil) == 0)
                #expect(try reader.message(id: Int64(f.sent["a3"]!.id)!) == f.sent["a3"])
                #expect(try reader.message(id: Int64(f.sent["g1"]!.id)! + 1_000) == nil)
            }
        }
    }

    @Test(arguments: StoreBackend.available) func acrossConversationsInterleavedByTime(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let f = try await fixture(store)
            try await store.read { reader throws in
                let direct = try reader.conversationIDs(of: f.ann, kind: .user)
                #expect(direct == [f.withBob, f.withCat].sorted { $0.rawValue < $1.rawValue })
                #expect(try reader.conversationIDs(of: f.ann, kind: .group) == [f.group])
                #expect(try reader.conversationIDs(of: f.ann, kind: .room) == [])
                let all = try reader.archivedMessages(in: direct, ArchiveRange(), limit: 10).map { $0.text ?? "?" }
                // a3, a4 and c2 share 300 ms: then by id, which is the order they were written.
                #expect(all == ["a1", "c1", "a2", "a3", "a4", "c2"])
                #expect(try reader.archivedMessages(in: direct, ArchiveRange(newest: true), limit: 3).map { $0.text ?? "?" } == ["a3", "a4", "c2"])
                #expect(try reader.archivedMessages(in: direct, ArchiveRange(start: 150, end: 200), limit: 10).map { $0.text ?? "?" } == ["c1", "a2"])
                #expect(try reader.archivedMessageCount(in: direct, start: nil, end: nil) == 6)
                #expect(try reader.archivedMessageCount(in: direct, start: 150, end: 200) == 2)
            }
        }
    }

    @Test(arguments: StoreBackend.available) func archiveReadsAreRangesOfTheArchiveIndex(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let f = try await fixture(store)
            let conversation = f.withBob.rawValue
            let plans: [String] = try await store.read { reader throws in
                let range: [Int64] = [conversation, 0, .max, .min, .min, .max, .max, 10]
                switch backend {
                case .sqlite, .sqliteMessageLog, .sqliteMessageLogLater:
                    let connection = try #require(reader as? SQLiteStoreReader).connection
                    func plan(_ sql: String, _ values: [Int64]) throws -> String {
                        try connection.prepare("EXPLAIN QUERY PLAN " + sql).query(bindings: values, row: { try $0.string(3) })
                            .joined(separator: "\n")
                    }
                    return [try plan(SQLiteArchiveSQL.oldest, range), try plan(SQLiteArchiveSQL.newest, range),
                            try plan(SQLiteArchiveSQL.count, Array(range.prefix(3)))]
                case .postgres:
                    let connection = try #require(reader as? PostgresStoreReader).connection
                    // The tables are tiny: without this the planner would rightly scan them.
                    _ = try connection.execute("SET LOCAL enable_seqscan = off")
                    func plan(_ sql: String, _ values: [Int64]) throws -> String {
                        let result = try connection.query("EXPLAIN " + sql, values.map { .text(String($0)) })
                        return try (0..<result.rowCount).map { try result.row($0).string(0) }.joined(separator: "\n")
                    }
                    return [try plan(PostgresArchiveSQL.oldest, range), try plan(PostgresArchiveSQL.newest, range),
                            try plan(PostgresArchiveSQL.count, Array(range.prefix(3)))]
                }
            }
            for plan in plans {
                #expect(plan.contains("messages_archive"), "\(plan)")
                #expect(!plan.contains("TEMP B-TREE") && !plan.contains("Sort") && !plan.contains("SCAN messages") && !plan.contains("Seq Scan"),
                        "\(plan)")
            }
        }
    }
}
