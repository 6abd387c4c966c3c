import Foundation
import ParleyCore
import ParleyProtocol
import ParleySQL
@testable import ParleySQLite
import TestSupport
import Testing

/// `--message-log-apply later`: a send is acknowledged with its row only in the log, and
/// everything that could see SQLite's messages sees it first (`UnappliedMessages`,
/// `MessageLogJournal`, `MessageLogApplier`).
@Suite struct MessageLogApplyLaterTests {
    private typealias Fixture = MessageLogFixture

    private func fixture() async throws -> Fixture { try await MessageLogFixture.make() }

    private func new(_ fixture: Fixture, from sender: UserID, _ clientID: String) -> NewMessage {
        NewMessage(conversationID: fixture.chat, sender: sender, clientID: clientID, kind: .text, text: "text " + clientID, createdAt: 10)
    }

    private func send(_ store: SQLiteStore, _ fixture: Fixture, from sender: UserID, _ clientID: String) async throws -> Message {
        let message = new(fixture, from: sender, clientID)
        return try await store.write { try $0.appendMessage(message, markingReadBySender: true) }
    }

    @Test func aSendIsReadableRightAfterItsAcknowledgement() async throws {
        let fixture = try await fixture()
        defer { fixture.remove() }
        let store = try fixture.open(apply: .later)
        defer { store.close() }
        let first = try await send(store, fixture, from: fixture.ann, "a1")
        let second = try await send(store, fixture, from: fixture.ann, "a2")
        #expect([first.seq, second.seq] == [1, 2])
        // Acknowledged with nothing in SQLite yet.
        #expect(try fixture.storedRows() == 0)
        // History, sync and unread counts see both.
        let history = try await store.read { try $0.messages(in: fixture.chat, before: nil, limit: 10) }
        #expect(history.map(\.seq).sorted() == [1, 2])
        let synced = try await store.read { try $0.messages(in: fixture.chat, after: 0, limit: 10) }
        #expect(synced.map(\.id) == [first.id, second.id])
        #expect(synced.map(\.text) == ["text a1", "text a2"])
        #expect(try await store.read { try $0.totalUnread(for: fixture.bob) } == 2)
        #expect(try await store.read { try $0.totalUnread(for: fixture.ann) } == 0)
        #expect(try fixture.storedRows() == 2)
        // And the next send continues the conversation.
        #expect(try await send(store, fixture, from: fixture.bob, "b1").seq == 3)
    }

    @Test func aRefusedSendInABatchLeavesNoGap() async throws {
        let fixture = try await fixture()
        defer { fixture.remove() }
        let store = try fixture.open(apply: .later)
        defer { store.close() }
        let (gate, held) = try await WriterGate.hold(store)
        let a = new(fixture, from: fixture.ann, "a1")
        let b = new(fixture, from: fixture.ann, "b1")
        let c = new(fixture, from: fixture.bob, "c1")
        async let first = store.write { try $0.appendMessage(a, markingReadBySender: true) }
        try await eventually("the first write to queue") { store.queuedWriteCount == 1 }
        let refused = Task { try await store.write { writer -> Message in
            _ = try writer.appendMessage(b, markingReadBySender: true)
            // Changed something (an acknowledged-to-be row, a seq), then fails.
            try writer.hideMessage(1, in: fixture.chat, for: fixture.ann, at: 5)
            throw StoreError.failure("the caller changed its mind")
        } }
        try await eventually("the second write to queue") { store.queuedWriteCount == 2 }
        async let third = store.write { try $0.appendMessage(c, markingReadBySender: true) }
        try await eventually("the third write to queue") { store.queuedWriteCount == 3 }
        gate.open()
        try await held.value
        #expect(try await first.seq == 1)
        await #expect(throws: StoreError.self) { _ = try await refused.value }
        #expect(try await third.seq == 2)
        let messages = try await store.read { try $0.messages(in: fixture.chat, after: 0, limit: 10) }
        #expect(messages.map(\.seq) == [1, 2])
        #expect(messages.map(\.clientId) == ["a1", "c1"])
        // The refused client id was never used.
        #expect(try await send(store, fixture, from: fixture.ann, "b1").seq == 3)
    }

    @Test func aClientIDUsedByAnUnappliedRowIsAConflict() async throws {
        let fixture = try await fixture()
        defer { fixture.remove() }
        let store = try fixture.open(apply: .later)
        defer { store.close() }
        _ = try await send(store, fixture, from: fixture.ann, "same")
        #expect(try fixture.storedRows() == 0)
        await #expect(throws: StoreError.conflict("client_id")) { _ = try await send(store, fixture, from: fixture.ann, "same") }
        // Within one transaction too.
        await #expect(throws: StoreError.conflict("client_id")) {
            _ = try await store.write { writer in
                _ = try writer.appendMessage(new(fixture, from: fixture.bob, "twice"), markingReadBySender: true)
                return try writer.appendMessage(new(fixture, from: fixture.bob, "twice"), markingReadBySender: true)
            }
        }
        // Another sender may use it; and once applied, SQLite's index says the same.
        #expect(try await send(store, fixture, from: fixture.bob, "same").seq == 2)
        #expect(try await store.read { try $0.message(sender: fixture.ann, clientID: "same") }?.seq == 1)
        #expect(try fixture.storedRows() == 2)
        await #expect(throws: StoreError.conflict("client_id")) { _ = try await send(store, fixture, from: fixture.ann, "same") }
    }

    @Test func editsMarkersAndHidingSeeAnUnappliedMessage() async throws {
        let fixture = try await fixture()
        defer { fixture.remove() }
        let store = try fixture.open(apply: .later)
        defer { store.close() }
        let sent = try await send(store, fixture, from: fixture.ann, "a1")
        #expect(try fixture.storedRows() == 0)
        let edited = try await store.write { writer -> Message? in
            var message = sent
            message.text = "edited"
            try writer.replaceMessage(message)
            return try writer.message(in: fixture.chat, seq: 1)
        }
        #expect(edited?.text == "edited")
        _ = try await send(store, fixture, from: fixture.ann, "a2")
        // Bob's read marker is bounded by last_seq: it must see the unapplied second message.
        #expect(try await store.write { try $0.markRead(conversation: fixture.chat, user: fixture.bob, upTo: 2) } == 2)
        #expect(try await store.read { try $0.totalUnread(for: fixture.bob) } == 0)
        #expect(try await store.read { try $0.message(in: fixture.chat, seq: 1) }?.text == "edited")
    }

    @Test func theWritersOwnApplyRunsAtTheBatchAndAfterTheDelay() async throws {
        let fixture = try await fixture()
        defer { fixture.remove() }
        var store = try fixture.open(apply: .later, batchRows: 3)
        for index in 0..<3 { _ = try await send(store, fixture, from: fixture.ann, "a\(index)") }
        try await eventually("the batch to be applied") { (try? fixture.storedRows()) == 3 }
        store.close()
        store = try fixture.open(apply: .later, delay: .milliseconds(20))
        defer { store.close() }
        #expect(store.replayedFromMessageLog == 0)
        _ = try await send(store, fixture, from: fixture.ann, "late")
        try await eventually("the delay to pass") { (try? fixture.storedRows()) == 4 }
    }

    @Test func unappliedRowsKeepTheirSegmentsAndAreReplayedOnceAfterAClose() async throws {
        let fixture = try await fixture()
        defer { fixture.remove() }
        var store = try fixture.open(segmentBytes: 4_096, apply: .later)
        let text = String(repeating: "x", count: 500)
        for index in 0..<60 {
            let message = NewMessage(conversationID: fixture.chat, sender: index % 2 == 0 ? fixture.ann : fixture.bob,
                                     clientID: "\(index)", kind: .text, text: "\(index)" + text, createdAt: 10)
            _ = try await store.write { try $0.appendMessage(message, markingReadBySender: true) }
        }
        func segments() throws -> Int {
            try FileManager.default.contentsOfDirectory(atPath: fixture.logDirectory).filter { $0.hasSuffix(".log") }.count
        }
        // ≈ 560 bytes a row: several complete segments, none dropped while their rows wait.
        #expect(try segments() > 3)
        #expect(try fixture.storedRows() == 0)
        // Closed with every row unapplied (as a kill would leave it): the open replays them.
        store.close()
        store = try fixture.open(segmentBytes: 4_096, apply: .later)
        #expect(store.replayedFromMessageLog == 60)
        #expect(try await store.read { try $0.messages(in: fixture.chat, after: 0, limit: 100) }.map(\.seq) == Array(1...60))
        // Ann read her own last message (seq 59), not Bob's last (seq 60).
        #expect(try await store.read { try $0.totalUnread(for: fixture.ann) } == 1)
        #expect(try await send(store, fixture, from: fixture.ann, "after").seq == 61)
        store.close()
        store = try fixture.open(segmentBytes: 4_096, apply: .later)
        defer { store.close() }
        // Nothing twice: the one unapplied row is replayed, the others are there.
        #expect(store.replayedFromMessageLog == 1)
        #expect(try await store.read { try $0.messages(in: fixture.chat, after: 0, limit: 100) }.map(\.seq) == Array(1...61))
    }

    /// Plain 1:1 sends that also move the online recipient's delivered marker
    /// (`ConversationService`'s send): the writer's transactions change nothing in SQLite,
    /// and every read sees the messages and the markers.
    private func sendDelivered(_ store: SQLiteStore, _ fixture: Fixture, _ clientID: String) async throws -> (seq: Int64, marker: Int64) {
        let message = new(fixture, from: fixture.ann, clientID)
        let chat = fixture.chat, bob = fixture.bob
        return try await store.write { writer in
            let sent = try writer.appendMessage(message, markingReadBySender: true)
            return (sent.seq, try writer.markDelivered(conversation: chat, user: bob, toAppended: sent.seq))
        }
    }

    private func writerChanges(_ store: SQLiteStore) async throws -> Int {
        try await store.write { writer in (writer as? SQLiteStoreWriter)?.connection.totalChanges ?? -1 }
    }

    private func walBytes(_ fixture: Fixture) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: fixture.path + "-wal")[.size] as? Int) ?? -1
    }

    @Test func plainSendsAndTheirDeliveredMarkersChangeNothingInSQLite() async throws {
        let fixture = try await fixture()
        defer { fixture.remove() }
        let store = try fixture.open(apply: .later)
        defer { store.close() }
        // Another connection's view: `data_version` moves with every commit that changed the file.
        let observer = try SQLiteConnection(path: fixture.path, flags: [.readOnly])
        let dataVersion = { try observer.queryFirst("PRAGMA data_version", row: { try $0.int64(0) }) ?? -1 }
        let changes = try await writerChanges(store)
        let wal = try walBytes(fixture)
        let version = try dataVersion()
        // The first send to Bob has no marker row yet: its apply takes the general way.
        for index in 1...20 {
            let sent = try await sendDelivered(store, fixture, "a\(index)")
            #expect(sent == (Int64(index), Int64(index)))
        }
        #expect(try await writerChanges(store) == changes)
        #expect(try walBytes(fixture) == wal)
        #expect(try dataVersion() == version)
        #expect(try fixture.storedRows() == 0)
        // Every read sees the sends and the marker.
        #expect(try await store.read { try $0.deliveredSeq(in: fixture.chat, user: fixture.bob) } == 20)
        #expect(try await store.read { try $0.messages(in: fixture.chat, after: 0, limit: 50) }.map(\.seq) == Array(1...20))
        #expect(try await store.read { try $0.totalUnread(for: fixture.bob) } == 20)
        #expect(try fixture.storedRows() == 20)
        #expect(try dataVersion() != version)
        // Now the marker row exists: the next ones take the prepared UPDATE, also in a write's own apply.
        _ = try await sendDelivered(store, fixture, "b1")
        let marker = try await store.write { writer in
            try writer.markDelivered(conversation: fixture.chat, user: fixture.bob, upTo: 100)
        }
        #expect(marker == 21)
        #expect(try fixture.storedRows() == 21)
    }

    @Test func aFailedWriteTakesItsDeliveredMarkerWithIt() async throws {
        let fixture = try await fixture()
        defer { fixture.remove() }
        let store = try fixture.open(apply: .later)
        defer { store.close() }
        _ = try await sendDelivered(store, fixture, "a1")
        let message = new(fixture, from: fixture.ann, "a2")
        let chat = fixture.chat, bob = fixture.bob
        await #expect(throws: StoreError.self) {
            try await store.write { writer in
                let sent = try writer.appendMessage(message, markingReadBySender: true)
                _ = try writer.markDelivered(conversation: chat, user: bob, toAppended: sent.seq)
                throw StoreError.failure("the caller changed its mind")
            }
        }
        #expect(try await store.read { try $0.deliveredSeq(in: fixture.chat, user: fixture.bob) } == 1)
        #expect(try await sendDelivered(store, fixture, "a3") == (2, 2))
        #expect(try await store.read { try $0.deliveredSeq(in: fixture.chat, user: fixture.bob) } == 2)
    }

    @Test func aDeliveredMarkerLeftForLaterIsReplayedWithItsRow() async throws {
        let fixture = try await fixture()
        defer { fixture.remove() }
        var store = try fixture.open(apply: .later)
        for index in 1...3 { _ = try await sendDelivered(store, fixture, "a\(index)") }
        // Closed with every row unapplied, as a kill would leave it.
        store.close()
        #expect(try fixture.storedRows() == 0)
        store = try fixture.open(apply: .later)
        defer { store.close() }
        #expect(store.replayedFromMessageLog == 3)
        #expect(try await store.read { try $0.deliveredSeq(in: fixture.chat, user: fixture.bob) } == 3)
    }
}
