import Foundation
import ParleyCore
import ParleyLog
import ParleyProtocol
import ParleySQL
@testable import ParleySQLite
import Testing

/// The message log as the durability point of message inserts: what the store appends to
/// it, and what an open replays from it (`MessageLogReplay`).
@Suite struct MessageLogReplayTests {
    private typealias Fixture = MessageLogFixture

    private func fixture() async throws -> Fixture { try await MessageLogFixture.make() }

    private func send(_ store: SQLiteStore, _ chat: ConversationID, from sender: UserID, _ text: String) async throws -> Message {
        try await store.write { writer in
            try writer.appendMessage(NewMessage(conversationID: chat, sender: sender, clientID: text, kind: .text,
                                                text: text, createdAt: 10), markingReadBySender: true)
        }
    }

    /// Appends rows to the log as a store would have before losing its commit.
    private func appendToLog(_ fixture: Fixture, _ rows: [LoggedMessage]) throws {
        let log = try SegmentLog(directory: fixture.logDirectory, options: MessageLogOptions(startsAnywhere: true))
        defer { log.close() }
        try log.append(rows.map(\.record))
    }

    private func row(_ fixture: Fixture, seq: Int64, id: Int64, text: String) -> LoggedMessage {
        LoggedMessage(conversation: fixture.chat.rawValue, seq: seq, id: id, sender: fixture.ann.rawValue, clientID: text, kind: "text",
                      text: text, body: nil, createdAt: 20 + seq, markedReadBySender: true)
    }

    @Test func aRowSurvivesItsPayloadCoding() throws {
        let full = LoggedMessage(conversation: 7, seq: 3, id: 99, sender: 5, clientID: "c-1", kind: "image", text: "héllo",
                                 body: #"{"image":{"id":"m"}}"#, createdAt: -4, markedReadBySender: true, deliveredTo: 6)
        let bare = LoggedMessage(conversation: 7, seq: 4, id: 100, sender: nil, clientID: nil, kind: "system", text: nil,
                                 body: nil, createdAt: 0, markedReadBySender: false)
        #expect(LoggedMessage(record: full.record) == full)
        #expect(LoggedMessage(record: bare.record) == bare)
        var cut = full.record
        cut.payload.removeLast()
        #expect(LoggedMessage(record: cut) == nil)
    }

    @Test func everyInsertedRowIsInTheLogAsTheTableHasIt() async throws {
        let fixture = try await fixture()
        defer { fixture.remove() }
        let store = try fixture.open()
        let sent = [try await send(store, fixture.chat, from: fixture.ann, "one"),
                    try await send(store, fixture.chat, from: fixture.bob, "two")]
        // A write that fails after its insert is undone, and so is its row in the log.
        await #expect(throws: (any Error).self) {
            try await store.write { writer in
                _ = try writer.appendMessage(NewMessage(conversationID: fixture.chat, sender: fixture.ann, clientID: "gone", kind: .text,
                                                        text: "gone", createdAt: 10), markingReadBySender: true)
                throw StoreError.failure("the caller changed its mind")
            }
        }
        store.close()
        let log = try SegmentLog(directory: fixture.logDirectory, options: MessageLogOptions(startsAnywhere: true))
        defer { log.close() }
        let rows = try log.records(of: UInt64(fixture.chat.rawValue), after: 0, limit: 10).compactMap(LoggedMessage.init(record:))
        #expect(rows.map(\.seq) == [1, 2])
        #expect(rows.map(\.text) == ["one", "two"])
        #expect(rows.map { String($0.id) } == sent.map(\.id))
        #expect(rows.map(\.sender) == [fixture.ann.rawValue, fixture.bob.rawValue])
    }

    @Test func aLogAheadOfTheStoreIsReplayedExactlyOnce() async throws {
        let fixture = try await fixture()
        defer { fixture.remove() }
        var store = try fixture.open()
        let first = try await send(store, fixture.chat, from: fixture.ann, "first")
        store.close()
        // Two rows the log synced and SQLite lost.
        let firstID = try #require(Int64(first.id))
        try appendToLog(fixture, [row(fixture, seq: 2, id: firstID + 1, text: "lost"), row(fixture, seq: 3, id: firstID + 2, text: "alsolost")])

        store = try fixture.open()
        #expect(store.replayedFromMessageLog == 2)
        let messages = try await store.read { try $0.messages(in: fixture.chat, after: 0, limit: 10) }
        #expect(messages.map(\.seq) == [1, 2, 3])
        #expect(messages.map(\.text) == ["first", "lost", "alsolost"])
        #expect(messages.map(\.id) == [first.id, String(firstID + 1), String(firstID + 2)])
        // The counters followed: Bob has three unread, Ann (the sender) none.
        #expect(try await store.read { try $0.totalUnread(for: fixture.bob) } == 3)
        #expect(try await store.read { try $0.totalUnread(for: fixture.ann) } == 0)
        // The next message continues the seq and takes a new id.
        let next = try await send(store, fixture.chat, from: fixture.bob, "next")
        #expect(next.seq == 4)
        #expect(try #require(Int64(next.id)) > firstID + 2)
        store.close()

        // Opening again replays nothing: every row of the log is in the table.
        store = try fixture.open()
        #expect(store.replayedFromMessageLog == 0)
        #expect(try await store.read { try $0.messages(in: fixture.chat, after: 0, limit: 10) }.map(\.seq) == [1, 2, 3, 4])
        // Search finds a replayed row once (it joins the full-text index later, as any new
        // message: `SearchIndexer`).
        let query = MessageSearchQuery(searcher: fixture.bob, conversation: fixture.chat, terms: ["alsolost"], limit: 10)
        #expect(try await store.read { try $0.searchMessages(query) }.map(\.text) == ["alsolost"])
        store.close()
    }

    @Test func aRowThatDoesNotContinueItsConversationStopsTheOpen() async throws {
        let fixture = try await fixture()
        defer { fixture.remove() }
        var store = try fixture.open()
        _ = try await send(store, fixture.chat, from: fixture.ann, "first")
        store.close()
        // A log that lost seq 2 (a fresh one, since this log would refuse the gap itself).
        try FileManager.default.removeItem(atPath: fixture.logDirectory)
        try appendToLog(fixture, [row(fixture, seq: 3, id: 50, text: "after a gap")])
        #expect(throws: (any Error).self) { _ = try fixture.open() }
        // Nothing was inserted.
        store = try SQLiteStore(path: fixture.path)
        defer { store.close() }
        #expect(try await store.read { try $0.messages(in: fixture.chat, after: 0, limit: 10) }.map(\.seq) == [1])
    }

    @Test func aSecondStoreCannotOpenTheSameLog() async throws {
        let fixture = try await fixture()
        defer { fixture.remove() }
        let store = try fixture.open()
        #expect(throws: (any Error).self) { _ = try fixture.open() }
        store.close()
        try fixture.open().close()
    }

    @Test func completeSegmentsAreDeletedOnceTheDatabaseHoldsThem() async throws {
        let fixture = try await fixture()
        defer { fixture.remove() }
        var store = try fixture.open(segmentBytes: 4_096)
        let text = String(repeating: "x", count: 500)
        for index in 0..<100 {
            _ = try await send(store, fixture.chat, from: index % 2 == 0 ? fixture.ann : fixture.bob, "\(index)" + text)
        }
        store.close()
        func segments() throws -> Int {
            try FileManager.default.contentsOfDirectory(atPath: fixture.logDirectory).filter { $0.hasSuffix(".log") }.count
        }
        // 100 rows of ≈ 560 bytes are ≈ 14 segments; an open checkpoints and keeps the last.
        store = try fixture.open(segmentBytes: 4_096)
        #expect(try segments() == 1)
        #expect(store.replayedFromMessageLog == 0)
        let last = try await send(store, fixture.chat, from: fixture.ann, "after")
        #expect(last.seq == 101)
        store.close()
        store = try fixture.open(segmentBytes: 4_096)
        defer { store.close() }
        #expect(try await store.read { try $0.messages(in: fixture.chat, after: 0, limit: 200) }.map(\.seq) == Array(1...101))
    }
}
