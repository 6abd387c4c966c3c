import ParleyLog

/// What `log-append` measures: a store that takes a record of a conversation and returns
/// once it is durable. The message log prototypes and today's SQLite store side by side.
protocol AppendTarget: AnyObject, Sendable {
    /// The engine's name in the tables.
    var name: String { get }
    /// Appends each item's `payload` as message `seq` (1, 2, …) of conversation
    /// `conversation` (0..<conversations), returning once all are durable.
    func append(_ items: [AppendItem]) throws
    /// Syncs (batches committed) so far.
    var syncs: Int { get }
    func close()
}

/// A `MessageLog` (segment log or LMDB) as an append target.
final class MessageLogTarget: AppendTarget, @unchecked Sendable {
    // @unchecked Sendable: `log` is a Sendable MessageLog set once; `name` never changes.
    let name: String
    let log: any MessageLog

    init(name: String, log: any MessageLog) {
        self.name = name
        self.log = log
    }

    func append(_ items: [AppendItem]) throws {
        try log.append(items.map { LogRecord(conversation: UInt64($0.conversation), seq: $0.seq, payload: $0.payload) })
    }

    var syncs: Int { log.statistics.syncs }

    func close() { log.close() }
}

/// One message of a `log-append` call.
struct AppendItem: Sendable {
    var conversation: Int
    var seq: UInt64
    var payload: [UInt8]
}
