internal import CLMDB
import Glibc

/// The message log on LMDB (Debian's liblmdb): one B+tree keyed by conversation and seq
/// (16 bytes, big-endian, so a conversation's records are adjacent and in order), each
/// batch one write transaction whose commit syncs the file (LMDB's default durability:
/// copy-on-write pages, then the meta page, each synced). Crash safety is LMDB's: a commit
/// that did not finish leaves the previous meta page in force.
///
/// Opening reads every key once to learn each conversation's last seq (what `GroupCommit`
/// needs to refuse gaps); a server would keep those in its relational store instead. A
/// conversation's last seq alone is one descent of the tree (`lastSeq(of:)`).
public final class LMDBLog: MessageLog, @unchecked Sendable {
    // @unchecked Sendable: `environment` and `database` are set in init and never change;
    // LMDB handles are thread-safe with MDB_NOTLS (read transactions are not tied to a
    // thread); write transactions run only in `LMDBWriter.writeDurably`, one at a time
    // (GroupCommit), and LMDB serializes them itself as well.

    /// The directory holding `data.mdb` and `lock.mdb`.
    public let directory: String
    private let handle: LMDBHandle
    private let commit: GroupCommit<LMDBWriter>

    /// Opens (creating if need be) the LMDB environment in `directory`.
    public init(directory: String, options: MessageLogOptions = MessageLogOptions()) throws(LogError) {
        self.directory = directory
        if mkdir(directory, 0o755) != 0 && errno != EEXIST { throw .system(operation: "mkdir \(directory)", errno: errno) }
        handle = try LMDBHandle(directory: directory, mapBytes: options.mapBytes)
        let lastSeqs = try handle.lastSeqs()
        commit = GroupCommit(sink: LMDBWriter(handle: handle), lastSeqs: lastSeqs, options: options)
    }

    public func append(_ records: [LogRecord]) throws(LogError) {
        try commit.append(records)
    }

    public func lastSeq(of conversation: UInt64) throws(LogError) -> UInt64 {
        try handle.lastSeq(of: conversation)
    }

    public func records(of conversation: UInt64, after seq: UInt64, limit: Int) throws(LogError) -> [LogRecord] {
        try handle.records(of: conversation, after: seq, limit: limit)
    }

    public func conversations() throws(LogError) -> [UInt64] {
        try handle.lastSeqs().keys.sorted()
    }

    public var statistics: MessageLogStatistics { commit.statistics }

    public func close() {
        commit.close()
        handle.close()
    }
}

/// The group commit's sink for LMDB: a batch is one write transaction.
final class LMDBWriter: LogSink, @unchecked Sendable {
    // @unchecked Sendable: only `handle` (see LMDBLog), called one thread at a time.
    private let handle: LMDBHandle

    init(handle: LMDBHandle) { self.handle = handle }

    func writeDurably(_ records: [LogRecord]) throws(LogError) {
        try handle.put(records)
    }
}

/// The LMDB environment and its one database, closed in `close()` or `deinit`.
final class LMDBHandle: @unchecked Sendable {
    // @unchecked Sendable: see LMDBLog. `isClosed` is only set by `close()`, which runs after
    // the group commit stopped writing; reads after close are the caller's error and fail.
    private var environment: OpaquePointer?
    private var database: MDB_dbi = 0

    init(directory: String, mapBytes: Int) throws(LogError) {
        var env: OpaquePointer?
        try Self.check(mdb_env_create(&env), "mdb_env_create")
        environment = env
        do throws(LogError) {
            try Self.check(mdb_env_set_mapsize(env, mapBytes), "mdb_env_set_mapsize")
            try Self.check(mdb_env_open(env, directory, UInt32(MDB_NOTLS), 0o644), "mdb_env_open \(directory)")
            var txn: OpaquePointer?
            try Self.check(mdb_txn_begin(env, nil, 0, &txn), "mdb_txn_begin")
            let opened = mdb_dbi_open(txn, nil, 0, &database)
            guard opened == 0 else {
                mdb_txn_abort(txn)
                throw Self.error(opened, "mdb_dbi_open")
            }
            try Self.check(mdb_txn_commit(txn), "mdb_txn_commit")
        } catch {
            mdb_env_close(env)
            environment = nil
            throw error
        }
    }

    deinit { close() }

    func close() {
        guard let environment else { return }
        mdb_env_close(environment)
        self.environment = nil
    }

    /// One write transaction with every record, committed (and so synced).
    func put(_ records: [LogRecord]) throws(LogError) {
        guard let environment else { throw .closed }
        var txn: OpaquePointer?
        try Self.check(mdb_txn_begin(environment, nil, 0, &txn), "mdb_txn_begin")
        for record in records {
            var key = Self.key(record.conversation, record.seq)
            var payload = record.payload
            let status = key.withUnsafeMutableBytes { keyBytes in
                payload.withUnsafeMutableBytes { valueBytes in
                    var keyValue = MDB_val(mv_size: keyBytes.count, mv_data: keyBytes.baseAddress)
                    var dataValue = MDB_val(mv_size: valueBytes.count, mv_data: valueBytes.baseAddress)
                    return mdb_put(txn, database, &keyValue, &dataValue, UInt32(MDB_NOOVERWRITE))
                }
            }
            guard status == 0 else {
                mdb_txn_abort(txn)
                throw Self.error(status, "mdb_put")
            }
        }
        try Self.check(mdb_txn_commit(txn), "mdb_txn_commit")
    }

    /// Records of `conversation` after `seq`, at most `limit`.
    func records(of conversation: UInt64, after seq: UInt64, limit: Int) throws(LogError) -> [LogRecord] {
        var found: [LogRecord] = []
        try scan(from: Self.key(conversation, seq &+ 1)) { record in
            guard record.conversation == conversation, found.count < limit else { return false }
            found.append(record)
            return true
        }
        return found
    }

    /// The last seq of `conversation` (0: none): the key just before the next
    /// conversation's first, found in one descent of the tree.
    func lastSeq(of conversation: UInt64) throws(LogError) -> UInt64 {
        guard let environment else { throw .closed }
        var txn: OpaquePointer?
        try Self.check(mdb_txn_begin(environment, nil, UInt32(MDB_RDONLY), &txn), "mdb_txn_begin (read)")
        defer { mdb_txn_abort(txn) }
        var cursor: OpaquePointer?
        try Self.check(mdb_cursor_open(txn, database, &cursor), "mdb_cursor_open")
        defer { mdb_cursor_close(cursor) }
        var key = MDB_val(mv_size: 0, mv_data: nil)
        var data = MDB_val(mv_size: 0, mv_data: nil)
        var status: Int32 = MDB_NOTFOUND
        if conversation < .max {
            var next = Self.key(conversation + 1, 0)
            status = next.withUnsafeMutableBytes { bytes -> Int32 in
                var probe = MDB_val(mv_size: bytes.count, mv_data: bytes.baseAddress)
                return mdb_cursor_get(cursor, &probe, &data, MDB_SET_RANGE)
            }
        }
        // Found a later key: step back one; none: the last key of all is the candidate.
        status = mdb_cursor_get(cursor, &key, &data, status == 0 ? MDB_PREV : MDB_LAST)
        guard status == 0 else {
            if status == MDB_NOTFOUND { return 0 }
            throw Self.error(status, "mdb_cursor_get")
        }
        guard key.mv_size == 16, let bytes = key.mv_data else { throw .corrupt("LMDB key of \(key.mv_size) bytes") }
        let raw = UnsafeRawBufferPointer(start: bytes, count: 16)
        guard raw.prefix(8).reduce(UInt64(0), { $0 << 8 | UInt64($1) }) == conversation else { return 0 }
        return raw.suffix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }

    /// Every conversation's last seq.
    func lastSeqs() throws(LogError) -> [UInt64: UInt64] {
        var last: [UInt64: UInt64] = [:]
        try scan(from: Self.key(0, 0)) { record in
            last[record.conversation] = record.seq
            return true
        }
        return last
    }

    /// Walks keys from `start` in order in one read transaction while `visit` says so.
    private func scan(from start: [UInt8], _ visit: (LogRecord) -> Bool) throws(LogError) {
        guard let environment else { throw .closed }
        var txn: OpaquePointer?
        try Self.check(mdb_txn_begin(environment, nil, UInt32(MDB_RDONLY), &txn), "mdb_txn_begin (read)")
        defer { mdb_txn_abort(txn) }
        var cursor: OpaquePointer?
        try Self.check(mdb_cursor_open(txn, database, &cursor), "mdb_cursor_open")
        defer { mdb_cursor_close(cursor) }
        var startKey = start
        var status = startKey.withUnsafeMutableBytes { bytes -> Int32 in
            var key = MDB_val(mv_size: bytes.count, mv_data: bytes.baseAddress)
            var data = MDB_val(mv_size: 0, mv_data: nil)
            let status = mdb_cursor_get(cursor, &key, &data, MDB_SET_RANGE)
            return status
        }
        while status == 0 {
            var key = MDB_val(mv_size: 0, mv_data: nil)
            var data = MDB_val(mv_size: 0, mv_data: nil)
            status = mdb_cursor_get(cursor, &key, &data, MDB_GET_CURRENT)
            guard status == 0 else { break }
            guard key.mv_size == 16, let keyBytes = key.mv_data else { throw .corrupt("LMDB key of \(key.mv_size) bytes") }
            let raw = UnsafeRawBufferPointer(start: keyBytes, count: 16)
            let conversation = raw.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let seq = raw.suffix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let payload = data.mv_data.map { Array(UnsafeRawBufferPointer(start: $0, count: data.mv_size)) } ?? []
            guard visit(LogRecord(conversation: conversation, seq: seq, payload: payload)) else { return }
            status = mdb_cursor_get(cursor, &key, &data, MDB_NEXT)
        }
        guard status == MDB_NOTFOUND || status == 0 else { throw Self.error(status, "mdb_cursor_get") }
    }

    /// Conversation then seq, big-endian: byte order is key order.
    static func key(_ conversation: UInt64, _ seq: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: conversation >> (56 - 8 * UInt64($0))) }
            + (0..<8).map { UInt8(truncatingIfNeeded: seq >> (56 - 8 * UInt64($0))) }
    }

    private static func check(_ status: Int32, _ operation: String) throws(LogError) {
        guard status == 0 else { throw error(status, operation) }
    }

    private static func error(_ status: Int32, _ operation: String) -> LogError {
        .engine(code: status, message: operation + ": " + String(cString: mdb_strerror(status)))
    }
}
