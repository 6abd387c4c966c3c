/// Where and how `SQLiteStore` keeps the segment log that is the durability point of message
/// inserts (`parley serve --message-log segment`; docs/architecture.md, "The message log").
public struct MessageLogSettings: Sendable {
    /// When a logged message row reaches SQLite's `messages` table.
    public enum Apply: Sendable, Equatable {
        /// In the send's own transaction, before its acknowledgement (`--message-log-apply now`).
        case now
        /// After the acknowledgement: the send is acknowledged once its row is synced to the
        /// log, and the writer inserts rows later, many in one transaction, or as soon as
        /// anything could read them (`--message-log-apply later`; `UnappliedMessages`).
        case later
    }

    /// The log's directory (created if missing); a lock file in it keeps a second store out.
    public var directory: String
    /// A new segment file starts when the current one would pass this many bytes; only
    /// whole segments are deleted, so this is also the step in which the log shrinks.
    public var segmentBytes: Int
    /// Above this many bytes in its segments, the log asks for a checkpoint that waits for
    /// readers (not only a passive one) after every commit until its old segments can go.
    /// A soft bound: a reader that holds its snapshot longer than the busy timeout delays it.
    public var maxBytes: Int
    /// The largest record (one message row), in bytes; a message above it is refused.
    public var maxRecordBytes: Int
    /// When rows reach SQLite.
    public var apply: Apply
    /// With `.later`: this many acknowledged rows waiting make an apply step due at once
    /// (`--message-log-apply-batch`). A step inserts every row waiting, at most this plus
    /// one batch of writes, and writes queued meanwhile wait for it.
    public var applyBatchRows: Int
    /// With `.later`: the longest an acknowledged row waits for its insert while fewer than
    /// `applyBatchRows` wait and nothing reads (`--message-log-apply-delay-ms`).
    public var applyDelay: Duration

    public init(directory: String, segmentBytes: Int = 16 << 20, maxBytes: Int = 256 << 20, maxRecordBytes: Int = 1 << 20,
                apply: Apply = .now, applyBatchRows: Int = 512, applyDelay: Duration = .milliseconds(250)) {
        self.directory = directory
        self.segmentBytes = segmentBytes
        self.maxBytes = maxBytes
        self.maxRecordBytes = maxRecordBytes
        self.apply = apply
        self.applyBatchRows = max(1, applyBatchRows)
        self.applyDelay = max(.zero, applyDelay)
    }
}
