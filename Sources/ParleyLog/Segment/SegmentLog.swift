import Glibc
import ParleySync

/// The purpose-built message log: records appended to segment files (`SegmentFile`,
/// `RecordCodec`: a CRC-32C per record), one `fdatasync` per batch (`GroupCommit`), and an
/// in-memory index of every conversation's records (`SegmentIndex`), rebuilt on open by
/// scanning the segments, or from a checkpoint (`checkpoint()`) and the records after it.
///
/// Recovery (`open`): every record up to the first one that is not whole and intact is
/// kept; in the last segment, that record and everything after it is cut off (a write torn
/// by a crash; nothing after it was acknowledged, since an append returns only after its
/// batch's sync). Damage anywhere else is refused (`LogError.corrupt`): a segment is
/// complete and synced before the next one starts.
public final class SegmentLog: MessageLog, @unchecked Sendable {
    // @unchecked Sendable: `shelf` is behind its mutex; `commit` is itself thread-safe and
    // set once in init; `directory` and `options` never change.

    /// What readers and the writer share: the index, and every segment by number.
    struct Shelf {
        var index = SegmentIndex()
        var segments: [UInt64: SegmentFile] = [:]
    }

    /// The directory holding the segments and the checkpoint.
    public let directory: String
    let options: MessageLogOptions
    let shelf: PThreadMutex<Shelf>
    private let writer: SegmentWriter
    private let commit: GroupCommit<SegmentWriter>

    /// What recovery did on open: records found, bytes cut off a torn tail, and whether a
    /// checkpoint was used.
    public let recovery: SegmentRecovery

    /// Opens (creating if need be) the log in `directory`, recovering it as described above.
    public init(directory: String, options: MessageLogOptions = MessageLogOptions()) throws(LogError) {
        self.directory = directory
        self.options = options
        if mkdir(directory, 0o755) != 0 && errno != EEXIST { throw .system(operation: "mkdir \(directory)", errno: errno) }
        let (recovered, report) = try SegmentRecovery.recover(directory: directory, options: options)
        recovery = report
        let segments = recovered.segments
        guard let last = segments.keys.max(), let current = segments[last] else {
            throw .corrupt("no segment after recovery")
        }
        shelf = PThreadMutex(recovered)
        writer = SegmentWriter(directory: directory, options: options, current: current, shelf: shelf)
        commit = GroupCommit(sink: writer, lastSeqs: recovered.index.entries.mapValues(\.lastSeq), options: options)
    }

    public func append(_ records: [LogRecord]) throws(LogError) {
        try commit.append(records)
    }

    public func lastSeq(of conversation: UInt64) throws(LogError) -> UInt64 {
        shelf.withLock { $0.index.lastSeq(of: conversation) }
    }

    public func records(of conversation: UInt64, after seq: UInt64, limit: Int) throws(LogError) -> [LogRecord] {
        let wanted = shelf.withLock { shelf in
            shelf.index.positions(of: conversation, after: seq, limit: limit).map { item in
                (item.seq, SegmentIndex.offset(of: item.position), shelf.segments[SegmentIndex.segment(of: item.position)])
            }
        }
        var records: [LogRecord] = []
        for (seq, offset, file) in wanted {
            guard let file else { throw .corrupt("conversation \(conversation) seq \(seq): its segment is gone") }
            let header = try file.read(count: RecordCodec.headerSize, at: offset)
            let length = header.count == RecordCodec.headerSize ? Int(header.withUnsafeBytes { RecordCodec.read($0, 4, 4) }) : -1
            guard length >= 0, length <= options.maxPayloadBytes else { throw .corrupt("\(file.path) at \(offset): bad record") }
            let bytes = try file.read(count: RecordCodec.headerSize + length, at: offset)
            guard case .record(let record, _) = bytes.withUnsafeBytes({ RecordCodec.decode($0, at: 0, maxPayload: options.maxPayloadBytes) }),
                  record.conversation == conversation, record.seq == seq else {
                throw .corrupt("\(file.path) at \(offset): record does not match the index")
            }
            records.append(record)
        }
        return records
    }

    public func conversations() throws(LogError) -> [UInt64] {
        shelf.withLock { $0.index.entries.keys.sorted() }
    }

    public var statistics: MessageLogStatistics { commit.statistics }

    /// Writes the index and the position it covers to `index.checkpoint` (atomically: a
    /// temporary file, synced, renamed), so the next open scans only what came after.
    public func checkpoint() throws(LogError) {
        try commit.exclusively { () throws(LogError) in
            let (index, segment, offset) = shelf.withLock { ($0.index, writer.current.number, writer.current.size) }
            try SegmentCheckpoint(index: index, segment: segment, offset: offset).write(to: directory)
        }
    }

    /// Segment files, the one being written included.
    public var segmentCount: Int { shelf.withLock { $0.segments.count } }

    /// Bytes in the segment files (headers and whole records).
    public var byteCount: Int { shelf.withLock { $0.segments.values.reduce(0) { $0 + $1.size } } }

    /// Deletes every segment before the one being written, for a caller whose own store now
    /// holds their records durably (retention), and returns how many went. A checkpoint of
    /// what is left is written first, so a crash in between leaves a log that opens: the
    /// scan starts at the checkpoint and never reads the older segments, which the next call
    /// deletes. Records of deleted segments are no longer returned by `records`; their seqs
    /// still count for the gap check until the log is closed; after a reopen the log knows
    /// nothing of them, so a log that drops segments is opened with `startsAnywhere`.
    @discardableResult
    public func dropCompleteSegments() throws(LogError) -> Int {
        try commit.exclusively { () throws(LogError) -> Int in
            let current = writer.current.number
            let doomed = shelf.withLock { shelf -> [SegmentFile] in
                shelf.index.drop(before: current)
                return shelf.segments.values.filter { $0.number < current }
            }
            guard !doomed.isEmpty else { return 0 }
            let (index, offset) = shelf.withLock { ($0.index, writer.current.size) }
            try SegmentCheckpoint(index: index, segment: current, offset: offset).write(to: directory)
            for file in doomed {
                guard unlink(file.path) == 0 || errno == ENOENT else { throw .system(operation: "unlink \(file.path)", errno: errno) }
            }
            shelf.withLock { shelf in for file in doomed { shelf.segments[file.number] = nil } }
            try SegmentFile.syncDirectory(directory)
            return doomed.count
        }
    }

    public func close() {
        commit.close()
    }
}

/// The writing side of a `SegmentLog`: the current segment, and the batch write the group
/// commit calls (one thread at a time).
final class SegmentWriter: LogSink, @unchecked Sendable {
    // @unchecked Sendable: `current` is changed only in `writeDurably`, which `GroupCommit`
    // runs on one thread at a time, and read by `checkpoint` only inside
    // `GroupCommit.exclusively`, when no write runs.

    private let directory: String
    private let options: MessageLogOptions
    private let shelf: PThreadMutex<SegmentLog.Shelf>
    private(set) var current: SegmentFile

    init(directory: String, options: MessageLogOptions, current: SegmentFile, shelf: PThreadMutex<SegmentLog.Shelf>) {
        self.directory = directory
        self.options = options
        self.current = current
        self.shelf = shelf
    }

    func writeDurably(_ records: [LogRecord]) throws(LogError) {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(records.reduce(0) { $0 + RecordCodec.headerSize + $1.payload.count })
        var offsets: [Int] = []
        offsets.reserveCapacity(records.count)
        for record in records {
            offsets.append(buffer.count)
            RecordCodec.encode(record, into: &buffer)
        }
        if current.size > SegmentFile.headerSize && current.size + buffer.count > options.segmentBytes {
            // The current segment is complete and synced (every batch was); start the next.
            let next = try SegmentFile.create(number: current.number + 1, in: directory)
            shelf.withLock { $0.segments[next.number] = next }
            current = next
        }
        let base = current.size
        try current.write(buffer, at: base)
        try current.sync()
        let segment = current
        shelf.withLock { shelf in
            segment.size = base + buffer.count
            for (record, offset) in zip(records, offsets) {
                // GroupCommit checked the seqs, so this continues every conversation.
                _ = shelf.index.add(conversation: record.conversation, seq: record.seq,
                                    position: SegmentIndex.position(segment: segment.number, offset: base + offset),
                                    startsAnywhere: options.startsAnywhere)
            }
        }
    }
}
