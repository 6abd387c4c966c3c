import Foundation
import ParleyCore
import ParleyProtocol
@testable import ParleySQLite
import ParleySync
import TestSupport
import Testing

/// `--message-log-apply later`: the log's append and sync on the `message-log` thread
/// (`MessageLogSyncer`), with its syncs held back or failed through the store's sync seam
/// around the real append and `fdatasync`.
@Suite struct MessageLogSyncerTests {
    private typealias Fixture = MessageLogFixture

    private func new(_ fixture: Fixture, from sender: UserID, _ clientID: String) -> NewMessage {
        NewMessage(conversationID: fixture.chat, sender: sender, clientID: clientID, kind: .text, text: "text " + clientID, createdAt: 10)
    }

    /// Queues a send through the completion API and records its answer under `label`.
    private func send(_ store: SQLiteStore, _ fixture: Fixture, _ clientID: String, into answers: Answers) {
        let message = new(fixture, from: fixture.ann, clientID)
        store.write({ try $0.appendMessage(message, markingReadBySender: true) }) { answers.add(clientID, $0.map { _ in () }) }
    }

    /// A store whose first sync (of the send "a1", answered into `answers`) is held while
    /// `body` runs; closed afterwards.
    private func withHeldSend(_ body: (SQLiteStore, Fixture, SyncControl, Answers) async throws -> Void) async throws {
        let fixture = try await MessageLogFixture.make()
        defer { fixture.remove() }
        let control = SyncControl(.hold)
        let store = try fixture.openLater(syncSeam: control.seam)
        defer { control.open(); store.close() }
        let answers = Answers()
        send(store, fixture, "a1", into: answers)
        try await control.waitUntilHeld()
        try await body(store, fixture, control, answers)
    }

    @Test func answersComeInHandOffOrderAcrossBatchesAlsoForWritesWithoutRows() async throws {
        try await withHeldSend { store, fixture, control, answers in
            // Each write below is taken by the writer (a batch of its own) before the next one
            // queues, while the sync of the first send is held.
            store.write({ try $0.insertUser(newUser("carl")) }) { answers.add("user", $0.map { _ in () }) }
            try await eventually("the user write to be taken") { store.queuedWriteCount == 0 }
            // Refused because the held send uses the client id: it must not answer first either.
            send(store, fixture, "a1", into: answers)
            try await eventually("the refused send to be taken") { store.queuedWriteCount == 0 }
            send(store, fixture, "a2", into: answers)
            try await eventually("the last send to be taken") { store.queuedWriteCount == 0 }
            try await Task.sleep(for: .milliseconds(200))
            #expect(answers.labels.isEmpty, "nobody hears back before the first send is synced")
            control.open()
            try await eventually("every answer") { answers.labels.count == 4 }
            #expect(answers.labels == ["a1", "user", "a1", "a2"])
            #expect(answers.outcomes == ["ok", "ok", "conflict", "ok"])
            #expect(try await store.read { try $0.messages(in: fixture.chat, after: 0, limit: 10) }.map(\.text) == ["text a1", "text a2"])
        }
    }

    @Test func aWriteThatSeesAnUnsyncedSendAnswersOnlyAfterItsSync() async throws {
        try await withHeldSend { store, fixture, control, answers in
            // Bob's write reads the conversation: the writer applies the unsynced row for it.
            let chat = fixture.chat
            let seen = Task { try await store.write { try $0.message(in: chat, seq: 1)?.text } }
            try await eventually("the reading write to be taken") { store.queuedWriteCount == 0 }
            try await Task.sleep(for: .milliseconds(200))
            #expect(answers.labels.isEmpty)
            control.open()
            #expect(try await seen.value == "text a1")
            #expect(answers.labels == ["a1"], "the send was answered before the write that saw it")
            #expect(try fixture.storedRows() == 1)
        }
    }

    @Test func aFailedSyncFailsTheHeldCallersAndEveryLaterWriteAndTheReopenReplaysWhatIsDurable() async throws {
        let fixture = try await MessageLogFixture.make()
        defer { fixture.remove() }
        // The write reaches the file, then its fdatasync fails.
        let control = SyncControl(.failAfterSync)
        let reports = PThreadMutex<[MessageLogApplyReport]>([])
        let store = try fixture.openLater(syncSeam: control.seam) { report in reports.withLock { $0.append(report) } }
        let message = new(fixture, from: fixture.ann, "a1")
        await #expect(throws: StoreError.failure("message log: sync failed")) {
            _ = try await store.write { try $0.appendMessage(message, markingReadBySender: true) }
        }
        let other = new(fixture, from: fixture.bob, "b1")
        await #expect(throws: StoreError.failure("message log: sync failed")) {
            _ = try await store.write { try $0.appendMessage(other, markingReadBySender: true) }
        }
        await #expect(throws: StoreError.failure("message log: sync failed")) {
            _ = try await store.write { try $0.insertUser(newUser("carl")) }
        }
        let told = reports.withLock { $0 }
        #expect(told.count == 1)
        if case .syncFailed(_, let refused)? = told.first { #expect(refused == 1) } else { Issue.record("no syncFailed report: \(told)") }
        store.close()
        #expect(control.syncs == 1, "nothing is appended after the failure")

        let reopened = try fixture.open(apply: .later)
        defer { reopened.close() }
        #expect(reopened.replayedFromMessageLog == 1)
        // The sender's retry with the same client id finds its row.
        await #expect(throws: StoreError.conflict("client_id")) {
            _ = try await reopened.write { try $0.appendMessage(message, markingReadBySender: true) }
        }
        let ann = fixture.ann
        #expect(try await reopened.read { try $0.message(sender: ann, clientID: "a1") }?.seq == 1)
        #expect(try await reopened.write { try $0.appendMessage(other, markingReadBySender: true) }.seq == 2)
    }

    @Test func theOpenCatchesTheLogUpWithRowsSQLiteCommittedBeforeAFailedSync() async throws {
        let fixture = try await MessageLogFixture.make()
        defer { fixture.remove() }
        let first = new(fixture, from: fixture.ann, "a1")
        let store = try fixture.open(apply: .later)
        _ = try await store.write { try $0.appendMessage(first, markingReadBySender: true) }
        store.close()
        // Nothing reaches the log now, but the send's own write reads the conversation, so its
        // row is applied in SQLite by the commit that comes before the (failed) sync.
        let control = SyncControl(.failBeforeSync)
        let failing = try fixture.openLater(syncSeam: control.seam)
        let second = new(fixture, from: fixture.ann, "a2")
        let chat = fixture.chat
        await #expect(throws: StoreError.failure("message log: sync failed")) {
            _ = try await failing.write { writer -> Message in
                let sent = try writer.appendMessage(second, markingReadBySender: true)
                _ = try writer.message(in: chat, seq: sent.seq)
                return sent
            }
        }
        failing.close()
        #expect(try fixture.storedRows() == 2)

        // The log continues from SQLite's seq 2: the next send is seq 3, and a restart after it
        // replays it and nothing else.
        let reopened = try fixture.open(apply: .later)
        let ann = fixture.ann
        #expect(try await reopened.read { try $0.message(sender: ann, clientID: "a2") }?.seq == 2)
        let third = new(fixture, from: fixture.bob, "b1")
        #expect(try await reopened.write { try $0.appendMessage(third, markingReadBySender: true) }.seq == 3)
        reopened.close()
        let last = try fixture.open(apply: .later)
        defer { last.close() }
        #expect(last.replayedFromMessageLog == 1, "only b1, which was never applied")
        #expect(try await last.read { try $0.messages(in: chat, after: 0, limit: 10) }.map(\.text) == ["text a1", "text a2", "text b1"])
    }

    @Test func closeWithHeldSyncsAnswersEveryCaller() async throws {
        let fixture = try await MessageLogFixture.make()
        defer { fixture.remove() }
        let control = SyncControl(.hold)
        let store = try fixture.openLater(syncSeam: control.seam)
        let answers = Answers()
        send(store, fixture, "a1", into: answers)
        try await control.waitUntilHeld()
        send(store, fixture, "a2", into: answers)
        store.write({ try $0.insertUser(newUser("carl")) }) { answers.add("user", $0.map { _ in () }) }
        try await eventually("the writes to be taken") { store.queuedWriteCount == 0 }
        let closed = Task.detached { store.close() }
        try await Task.sleep(for: .milliseconds(100))
        control.open()
        await closed.value
        #expect(answers.labels == ["a1", "a2", "user"])
        #expect(answers.outcomes == ["ok", "ok", "ok"])
        await #expect(throws: StoreError.failure("write: the store is closed")) {
            _ = try await store.write { try $0.insertUser(newUser("dan")) }
        }
        // The user write applied both rows (its statements see them); the log has them too.
        #expect(try fixture.storedRows() == 2)
        let reopened = try fixture.open(apply: .later)
        defer { reopened.close() }
        #expect(reopened.replayedFromMessageLog == 0)
        let chat = fixture.chat
        #expect(try await reopened.read { try $0.messages(in: chat, after: 0, limit: 10) }.map(\.text) == ["text a1", "text a2"])
        #expect(try await reopened.write { try $0.appendMessage(self.new(fixture, from: fixture.bob, "b1"), markingReadBySender: true) }.seq == 3)
    }
}

/// The answers of writes, in the order their completions ran.
private final class Answers: Sendable {
    private let entries = PThreadMutex<[(label: String, outcome: String)]>([])

    func add(_ label: String, _ result: Result<Void, any Error>) {
        let outcome: String
        switch result {
        case .success: outcome = "ok"
        case .failure(StoreError.conflict): outcome = "conflict"
        case .failure(let error): outcome = "\(error)"
        }
        entries.withLock { $0.append((label, outcome)) }
    }

    var labels: [String] { entries.withLock { $0.map(\.label) } }
    var outcomes: [String] { entries.withLock { $0.map(\.outcome) } }
}

/// The sync seam of these tests, around the `message-log` thread's real append and sync.
private final class SyncControl: Sendable {
    enum Mode {
        /// The first sync waits until `open()`; every sync then runs.
        case hold
        /// The records are written and synced, then the sync reports a failure.
        case failAfterSync
        /// The sync fails before anything is written.
        case failBeforeSync
    }

    struct InjectedFailure: Error {}

    private let state: PThreadMutex<(mode: Mode, syncs: Int, opened: Bool)>
    private let entered = DispatchSemaphore(value: 0)
    private let released = DispatchSemaphore(value: 0)

    init(_ mode: Mode) {
        state = PThreadMutex((mode, 0, false))
    }

    var seam: MessageLogSyncer.SyncSeam { { [self] sync in try run(sync) } }

    /// Syncs seen so far.
    var syncs: Int { state.withLock { $0.syncs } }

    private func run(_ sync: () throws -> Void) throws {
        let (mode, first, opened) = state.withLock { state in
            state.syncs += 1
            return (state.mode, state.syncs == 1, state.opened)
        }
        switch mode {
        case .hold:
            if first && !opened {
                entered.signal()
                // Bounded, so a failing test cannot keep the store's close waiting for ever.
                _ = released.wait(timeout: .now() + 30)
            }
            try sync()
        case .failAfterSync:
            try sync()
            throw InjectedFailure()
        case .failBeforeSync:
            throw InjectedFailure()
        }
    }

    /// Returns once the first sync is held.
    func waitUntilHeld() async throws {
        try await eventually("the first sync to be held") { entered.wait(timeout: .now()) == .success }
    }

    /// Lets the held sync (and every later one) run; later calls do nothing.
    func open() {
        let first = state.withLock { state in
            defer { state.opened = true }
            return !state.opened
        }
        if first { released.signal() }
    }
}
