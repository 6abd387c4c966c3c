import Foundation
import ParleyCore
import ParleyProtocol
import ParleySQL
@testable import ParleySQLite
import TestSupport

/// A store directory for the message-log tests: a database with two users and their 1:1
/// conversation (made without the log), and the log's directory beside it.
struct MessageLogFixture: Sendable {
    let root: String
    var path: String { root + "/parley.sqlite" }
    var logDirectory: String { root + "/message-log" }
    let ann: UserID
    let bob: UserID
    let chat: ConversationID

    static func make() async throws -> MessageLogFixture {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(path: directory.file("parley.sqlite"))
        defer { store.close() }
        let ann = try await store.write { try $0.insertUser(newUser("ann")) }
        let bob = try await store.write { try $0.insertUser(newUser("bob")) }
        let chat = try await store.write { writer in
            let chat = try writer.insertConversation(NewConversation(kind: .user, userA: ann.id, userB: bob.id, createdAt: 1))
            for user in [ann.id, bob.id] {
                try writer.saveMember(StoredMember(conversationID: chat.id, userID: user, role: .member, joinedAt: 1, readSeq: 0))
            }
            return chat
        }
        return MessageLogFixture(root: directory.path, ann: ann.id, bob: bob.id, chat: chat.id)
    }

    /// The store with the log (`apply`: when rows reach SQLite; the defaults of a later
    /// apply here are so large that the writer's own apply never runs).
    func open(segmentBytes: Int = 16 << 20, apply: MessageLogSettings.Apply = .now, batchRows: Int = 1_000_000,
              delay: Duration = .seconds(3_600)) throws -> SQLiteStore {
        try SQLiteStore(path: path, messageLog: MessageLogSettings(directory: logDirectory, segmentBytes: segmentBytes, apply: apply,
                                                                   applyBatchRows: batchRows, applyDelay: delay))
    }

    /// The store with `--message-log-apply later` whose `message-log` thread syncs through
    /// `syncSeam` (a `SyncControl`'s), telling `report` when a sync fails.
    func openLater(syncSeam: @escaping MessageLogSyncer.SyncSeam,
                   report: @escaping @Sendable (MessageLogApplyReport) -> Void = { _ in }) throws -> SQLiteStore {
        try SQLiteStore(path: path, messageLog: MessageLogSettings(directory: logDirectory, apply: .later, applyBatchRows: 1_000_000,
                                                                   applyDelay: .seconds(3_600)),
                        messageLogApplyReport: report, messageLogSyncSeam: syncSeam)
    }

    /// Rows in SQLite's committed state, read by a connection of its own (not the store's,
    /// whose reads apply waiting rows first).
    func storedRows() throws -> Int {
        let connection = try SQLiteConnection(path: path, flags: [.readOnly])
        return try connection.queryFirst("SELECT count(*) FROM messages", row: { try $0.int(0) }) ?? -1
    }

    func remove() { try? FileManager.default.removeItem(atPath: root) }
}
