import Foundation
import ParleyCore
import ParleyProtocol
import ParleySQLite
import ParleySync

/// Today's store as an append target: `SQLiteStore` with its FULL sync and group commit,
/// each append the send path's own call (`appendMessage(_:markingReadBySender:)`: the seq
/// from the conversation's counter, the insert with its indexes, the sender's read marker)
/// in 1:1 conversations of two members, made on open.
final class SQLiteStoreTarget: AppendTarget, @unchecked Sendable {
    // @unchecked Sendable: `store` is thread-safe (its writer thread does the work); the
    // arrays are written only in init.
    let name = "sqlite (store)"
    private let store: SQLiteStore
    private var conversationIDs: [ConversationID] = []
    private var senders: [UserID] = []

    init(path: String, conversations: Int) throws {
        store = try SQLiteStore(path: path)
        let made = try Self.wait(store) { writer in
            var made: [(ConversationID, UserID)] = []
            for index in 0..<conversations {
                let a = try writer.insertUser(NewUser(username: "log-a\(index)", passwordHash: nil, phone: nil, createdAt: 0))
                let b = try writer.insertUser(NewUser(username: "log-b\(index)", passwordHash: nil, phone: nil, createdAt: 0))
                let conversation = try writer.insertConversation(NewConversation(kind: .user, userA: a.id, userB: b.id, createdAt: 0))
                for user in [a.id, b.id] {
                    try writer.saveMember(StoredMember(conversationID: conversation.id, userID: user, role: .member, joinedAt: 0, readSeq: 0))
                }
                made.append((conversation.id, a.id))
            }
            return made
        }
        conversationIDs = made.map(\.0)
        senders = made.map(\.1)
    }

    /// Each item is its own write, as each send is in the server; all are queued at once, so
    /// the store's writer commits them in as few batches as it does under load.
    func append(_ items: [AppendItem]) throws {
        let group = DispatchGroup()
        let failures = PThreadMutex<[String]>([])
        for item in items {
            let message = NewMessage(conversationID: conversationIDs[item.conversation], sender: senders[item.conversation],
                                     clientID: "c\(item.seq)", kind: .text,
                                     text: String(decoding: item.payload.map { 0x61 + $0 % 26 }, as: UTF8.self), createdAt: Int64(item.seq))
            let expected = Int64(item.seq)
            group.enter()
            store.write({ try $0.appendMessage(message, markingReadBySender: true) }) { result in
                switch result {
                case .success(let stored) where stored.seq == expected: break
                case .success(let stored): failures.withLock { $0.append("stored as seq \(stored.seq), expected \(expected)") }
                case .failure(let error): failures.withLock { $0.append("\(error)") }
                }
                group.leave()
            }
        }
        group.wait()
        if let first = failures.withLock({ $0.first }) { throw StoreError.failure(first) }
    }

    var syncs: Int { store.commitCount }

    func close() { store.close() }

    /// Runs `body` in the store's next batch and waits until it is committed.
    private static func wait<T: Sendable>(_ store: SQLiteStore, _ body: @escaping @Sendable (StoreWriter) throws -> T) throws -> T {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var outcome: Result<T, any Error>?
        store.write(body) { result in
            outcome = result
            done.signal()
        }
        done.wait()
        // The semaphore orders the completion's write before this read.
        guard let outcome else { throw StoreError.failure("write finished without an outcome") }
        return try outcome.get()
    }
}
