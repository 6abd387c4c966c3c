import Foundation
import ParleyCore
import ParleyProtocol
import ParleySQL
import ParleySync
@testable import ParleySQLite
import TestSupport
import Testing

/// Messages join the full-text index after their send, in batches of the writer's own; search
/// finds them all the same, before and after, by their current text only, and a restart
/// neither loses an unindexed message nor indexes one twice.
@Suite struct SearchIndexerTests {
    /// Never indexes on its own within a test (only the batch size could make it due).
    private static let never = SearchIndexSettings(batchRows: 1_000_000, interval: .seconds(3600))
    /// Indexes whenever anything waits, between batches.
    private static let atOnce = SearchIndexSettings(batchRows: 1000, interval: .zero)

    /// A store on `path` with one user and a group of theirs.
    private struct Opened {
        let store: SQLiteStore
        let ann: UserID
        let group: ConversationID
    }

    /// `previous`: the same file opened before (its user and group).
    private func open(_ path: String, _ settings: SearchIndexSettings, as previous: Opened? = nil,
                      reports: ReportList? = nil) async throws -> Opened {
        let store = try SQLiteStore(path: path, searchIndex: settings, searchIndexReport: { report in
            reports?.list.withLock { $0.append(report) }
        })
        if let previous { return Opened(store: store, ann: previous.ann, group: previous.group) }
        let (ann, group) = try await store.write { writer in
            let ann = try writer.insertUser(NewUser(username: "ann", passwordHash: "h", phone: nil, createdAt: 1))
            let group = try writer.insertConversation(NewConversation(kind: .group, name: "g", ownerID: ann.id, createdAt: 1))
            try writer.saveMember(StoredMember(conversationID: group.id, userID: ann.id, role: .owner, joinedAt: 1, readSeq: 0))
            return (ann.id, group.id)
        }
        return Opened(store: store, ann: ann, group: group)
    }

    @discardableResult
    private func send(_ opened: Opened, _ text: String) async throws -> Message {
        let (group, ann) = (opened.group, opened.ann)
        return try await opened.store.write { writer in
            try writer.appendMessage(NewMessage(conversationID: group, sender: ann, clientID: "c-\(text)", kind: .text, text: text,
                                                createdAt: 10))
        }
    }

    /// The texts a search of `terms` finds, newest first, everywhere and in the group.
    private func search(_ opened: Opened, _ terms: [String]) async throws -> [String] {
        let (ann, group) = (opened.ann, opened.group)
        let (everywhere, inGroup) = try await opened.store.read { reader in
            (try reader.searchMessages(MessageSearchQuery(searcher: ann, terms: terms, limit: 50)),
             try reader.searchMessages(MessageSearchQuery(searcher: ann, conversation: group, terms: terms, limit: 50)))
        }
        #expect(everywhere.map(\.id) == inGroup.map(\.id))
        return everywhere.map { $0.text ?? "" }
    }

    /// The watermark and the documents in the index, read beside the store.
    private func indexState(_ path: String) throws -> (watermark: Int64, documents: Int, newest: Int64) {
        let connection = try SQLiteConnection(path: path, flags: [.readOnly])
        let watermark = try connection.queryFirst(SearchIndexer.watermarkSQL) { try $0.int64(0) } ?? -1
        // FTS5 keeps one `docsize` row per indexed document (its content lives in `messages`).
        let documents = try connection.queryFirst("SELECT count(*) FROM messages_search_docsize") { try $0.int(0) } ?? -1
        let newest = try connection.queryFirst("SELECT coalesce(max(id), 0) FROM messages") { try $0.int64(0) } ?? -1
        return (watermark, documents, newest)
    }

    private func waitForIndex(_ path: String) async throws {
        try await eventually("the index to reach the newest message") {
            guard let state = try? indexState(path) else { return false }
            return state.watermark == state.newest
        }
    }

    /// FTS5's own check of the index's structure.
    private func checkIntegrity(_ path: String) throws {
        let connection = try SQLiteConnection(path: path)
        try connection.run("INSERT INTO messages_search (messages_search) VALUES ('integrity-check')")
    }

    /// What the indexer reported, in order (told on the writer thread, read by the test).
    private final class ReportList: Sendable {
        let list = PThreadMutex<[SearchIndexReport]>([])
        var reports: [SearchIndexReport] { list.withLock { $0 } }
    }

    /// A step that fails is reported (once, not at every retry), search keeps finding the
    /// message, and when the cause is gone the recovery is reported and the message indexed.
    @Test func aFailingStepIsReportedAndSoIsItsRecovery() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("parley.sqlite")
        let reports = ReportList()
        let opened = try await open(path, SearchIndexSettings(batchRows: 1000, interval: .milliseconds(20)), reports: reports)
        defer { opened.store.close() }
        let first = try await send(opened, "first words")
        try await waitForIndex(path)

        // The watermark's row gone: the next step cannot know where to go on from.
        let beside = try SQLiteConnection(path: path)
        beside.busyTimeout = .seconds(5)
        try beside.run("DELETE FROM search_index_watermark")
        try await send(opened, "second words")
        try await eventually("the failure to be reported") {
            reports.reports.contains { if case .stepFailed = $0 { true } else { false } }
        }
        guard case let .stepFailed(reason, failedSteps, waiting) = reports.reports.first else {
            Issue.record("the first report is not the failure: \(reports.reports)")
            return
        }
        #expect(reason.contains("search_index_watermark"))
        #expect(failedSteps == 1)
        #expect(waiting == 1)
        // Retried every 20 ms: another report only at the 10th failure in a row.
        try await Task.sleep(for: .milliseconds(100))
        #expect(reports.reports.allSatisfy { report in
            if case let .stepFailed(_, steps, _) = report { FailureStreak.isReported(steps) } else { false }
        })

        try beside.run("INSERT INTO search_index_watermark (only, indexed_through) VALUES (1, ?1)", Int64(first.id))
        try await eventually("the recovery to be reported") {
            if case .recovered(let steps)? = reports.reports.last { steps >= 1 } else { false }
        }
        try await waitForIndex(path)
        #expect(try indexState(path).documents == 2)
        #expect(try await search(opened, ["words"]) == ["second words", "first words"])
    }

    @Test func failuresAreReportedAtTheFirstAndEveryPowerOfTen() {
        #expect([1, 10, 100, 1000].allSatisfy(FailureStreak.isReported))
        #expect(![2, 9, 11, 20, 99, 110, 1001].contains(where: FailureStreak.isReported))
    }

    @Test func aSentMessageIsFoundAtOnceAndAfterIndexing() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("parley.sqlite")
        let first = try await open(path, Self.never)
        try await send(first, "hello 你好世界 world")
        #expect(try await search(first, ["hello", "好世界"]) == ["hello 你好世界 world"])
        #expect(try indexState(path).documents == 0, "nothing indexed on the send path")
        first.store.close()

        let second = try await open(path, Self.atOnce, as: first)
        defer { second.store.close() }
        try await waitForIndex(path)
        #expect(try indexState(path).documents == 1)
        #expect(try await search(second, ["HELLO", "好世界"]) == ["hello 你好世界 world"])
        #expect(try await search(second, ["goodbye"]).isEmpty)
    }

    /// Edited before it was indexed, and again after: found by its text of the moment only.
    @Test func anEditedMessageIsFoundByItsNewTextOnly() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("parley.sqlite")
        let first = try await open(path, Self.never)
        var message = try await send(first, "apple pie 苹果派")
        message.text = "banana split 香蕉船"
        try await first.store.write { [message] writer in try writer.replaceMessage(message) }
        #expect(try await search(first, ["banana"]) == ["banana split 香蕉船"])
        #expect(try await search(first, ["apple"]).isEmpty)
        #expect(try await search(first, ["苹果派"]).isEmpty)
        first.store.close()

        let second = try await open(path, Self.atOnce, as: first)
        defer { second.store.close() }
        try await waitForIndex(path)
        #expect(try await search(second, ["香蕉船"]) == ["banana split 香蕉船"])
        #expect(try await search(second, ["apple"]).isEmpty)
        message.text = "cherry tart"
        try await second.store.write { [message] writer in try writer.replaceMessage(message) }
        #expect(try await search(second, ["cherry"]) == ["cherry tart"])
        #expect(try await search(second, ["banana"]).isEmpty)
        #expect(try await search(second, ["香蕉船"]).isEmpty)
        #expect(try indexState(path).documents == 1)
        try checkIntegrity(path)
    }

    /// Recalled before it was indexed, or after: never found.
    @Test func aRecalledMessageIsNotFound() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("parley.sqlite")
        let first = try await open(path, Self.never)
        let early = try await send(first, "secret one")
        let late = try await send(first, "secret two")
        try await recall(early, by: first)
        #expect(try await search(first, ["secret"]) == ["secret two"])
        first.store.close()

        let second = try await open(path, Self.atOnce, as: first)
        defer { second.store.close() }
        try await waitForIndex(path)
        #expect(try indexState(path).documents == 1, "the recalled message was never indexed")
        try await recall(late, by: second)
        #expect(try await search(second, ["secret"]).isEmpty)
        #expect(try indexState(path).documents == 0)
        try checkIntegrity(path)
    }

    private func recall(_ message: Message, by opened: Opened) async throws {
        var recalled = message
        recalled.text = nil
        recalled.recalled = RecallMark(by: opened.ann, at: 20)
        try await opened.store.write { [recalled] writer in try writer.replaceMessage(recalled) }
    }

    /// Restarts with messages waiting, and one after indexing part of them:
    /// every message is found throughout, and each is indexed exactly once.
    @Test func restartsLoseNothingAndIndexNothingTwice() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("parley.sqlite")
        let texts = (1...5).map { "restart \($0) 重启了" }
        let first = try await open(path, Self.never)
        for text in texts { try await send(first, text) }
        first.store.close()

        let second = try await open(path, Self.never, as: first)
        #expect(try await search(second, ["重启了"]) == texts.reversed())
        second.store.close()
        #expect(try indexState(path).documents == 0)

        // Four messages a step: the five waiting at open make one step due at once, and the
        // store closes with four indexed, two waiting.
        let third = try await open(path, SearchIndexSettings(batchRows: 4, interval: .seconds(3600)), as: first)
        try await send(third, "restart 6 重启了")
        #expect(try await search(third, ["重启了"]).count == 6)
        third.store.close()
        let partly = try indexState(path)
        #expect(partly.documents == 4 && partly.watermark < partly.newest)

        let fourth = try await open(path, Self.atOnce, as: first)
        defer { fourth.store.close() }
        try await waitForIndex(path)
        #expect(try indexState(path).documents == 6)
        #expect(try await search(fourth, ["重启了"]) == (texts + ["restart 6 重启了"]).reversed())
        #expect(try await search(fourth, ["restart 3"]) == ["restart 3 重启了"])
        try checkIntegrity(path)
    }

    /// As many waiting messages as a step takes make it due at once, whatever the interval.
    @Test func aFullBatchIsIndexedWithoutWaitingForTheInterval() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("parley.sqlite")
        let opened = try await open(path, SearchIndexSettings(batchRows: 3, interval: .seconds(3600)))
        defer { opened.store.close() }
        for index in 1...3 { try await send(opened, "batch \(index)") }
        try await waitForIndex(path)
        #expect(try indexState(path).documents == 3)
        try await send(opened, "batch 4")
        #expect(try indexState(path).watermark < indexState(path).newest, "one waiting message waits for the interval")
        #expect(try await search(opened, ["batch"]) == ["batch 4", "batch 3", "batch 2", "batch 1"])
    }

    /// The tail is read as a range of `messages`' rowid, never the whole table.
    @Test func theTailIsReadAsARangeOfIDs() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let connection = try SQLiteConnection(path: directory.file("plan.sqlite"))
        _ = try SQLiteStoreSchema.migrator.migrate(connection)
        for sql in [SQLiteSearchTailSQL.everywhere, SQLiteSearchTailSQL.inConversation] {
            let plan = try connection.query("EXPLAIN QUERY PLAN " + sql, nil as String?, Int64.max, nil as Int64?, 1, 1, nil as Int64?,
                                            SQLiteSearchSQL.literals(["北京"])) { try $0.string(3) }
            #expect(plan.contains { $0.hasPrefix("SEARCH m USING INTEGER PRIMARY KEY") }, "\(plan)")
            #expect(!plan.contains { $0.hasPrefix("SCAN m") }, "\(plan)")
        }
    }
}
