/// An append-only, durable log of conversation records: what a 1:1 message path needs
/// from storage, apart from how an engine keeps it (`SegmentLog`, a purpose-built segment
/// log; `LMDBLog`, LMDB).
///
/// Every implementation keeps the same promises, checked by the same tests:
/// - `append` returns only once its records are durable (synced: they survive kill -9 and
///   power loss); many threads may append at once and share syncs (group commit);
/// - each conversation's seqs are 1, 2, 3 … with no gaps (a gap is refused);
/// - after a crash, opening the log again finds every record an `append` returned for, and
///   nothing half-written.
public protocol MessageLog: AnyObject, Sendable {
    /// Appends `records` durably (see above). Records of one conversation must continue its
    /// seq in order (`lastSeq(of:) + 1`, then + 2 …), also within one call.
    func append(_ records: [LogRecord]) throws(LogError)

    /// The highest durable seq of `conversation` (0: none).
    func lastSeq(of conversation: UInt64) throws(LogError) -> UInt64

    /// Up to `limit` records of `conversation` after `seq` (exclusive), in order.
    func records(of conversation: UInt64, after seq: UInt64, limit: Int) throws(LogError) -> [LogRecord]

    /// Every conversation with at least one record, ascending.
    func conversations() throws(LogError) -> [UInt64]

    /// Counters since opening.
    var statistics: MessageLogStatistics { get }

    /// Waits for appends in progress, then closes the files; later calls fail with `closed`.
    func close()
}

/// What a log has done since it was opened.
public struct MessageLogStatistics: Sendable, Equatable {
    /// Records made durable.
    public var records: Int = 0
    /// Batches written, each with one sync (`fdatasync` or the engine's commit).
    public var syncs: Int = 0

    public init(records: Int = 0, syncs: Int = 0) {
        self.records = records
        self.syncs = syncs
    }
}

/// Settings both engines share.
public struct MessageLogOptions: Sendable {
    /// The largest payload accepted, in bytes. A batch is whatever appenders brought while
    /// the previous one was synced, so its size is bounded by the appending threads times
    /// the records each brings.
    public var maxPayloadBytes: Int = 64 * 1024
    /// Segment log: a new segment file starts when the current one would pass this size.
    public var segmentBytes: Int = 64 * 1024 * 1024
    /// LMDB: the most the database file may grow to (its memory map), in bytes.
    public var mapBytes: Int = 4 * 1024 * 1024 * 1024
    /// Segment log: whether a conversation the log holds nothing of may start at any seq,
    /// not only at 1. A log whose old segments are dropped once another store holds their
    /// records (`SegmentLog.dropCompleteSegments()`) needs it: after a restart it knows
    /// nothing of a conversation whose records were all dropped.
    public var startsAnywhere = false

    public init(maxPayloadBytes: Int = 64 * 1024, segmentBytes: Int = 64 * 1024 * 1024, mapBytes: Int = 4 * 1024 * 1024 * 1024,
                startsAnywhere: Bool = false) {
        self.maxPayloadBytes = maxPayloadBytes
        self.segmentBytes = segmentBytes
        self.mapBytes = mapBytes
        self.startsAnywhere = startsAnywhere
    }
}
