/// Where and how `SQLiteStore` keeps the segment log that is the durability point of message
/// inserts (`parley serve --message-log segment`; docs/architecture.md, "The message log").
public struct MessageLogSettings: Sendable {
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

    public init(directory: String, segmentBytes: Int = 16 << 20, maxBytes: Int = 256 << 20, maxRecordBytes: Int = 1 << 20) {
        self.directory = directory
        self.segmentBytes = segmentBytes
        self.maxBytes = maxBytes
        self.maxRecordBytes = maxRecordBytes
    }
}
