/// How the SQLite store keeps its full-text index (`messages_search`) up to date off the send
/// path (`SearchIndexer`; docs/architecture.md, "Search"): a sent message is committed and
/// acknowledged without index work, and the writer thread indexes new messages later, many
/// in one transaction of its own, where FTS5 costs far less per row. Until then search finds
/// them by reading them (the "tail" above the index's watermark), so results never lag.
public struct SearchIndexSettings: Sendable, Equatable {
    /// Most messages indexed in one transaction; also how many unindexed messages make a
    /// step due at once, so it bounds the tail every search reads (to about this plus one
    /// batch of writes). Writes queued during a step wait for it, so this also bounds that
    /// wait (docs/benchmarks.md (q): with 1,000 a busy machine saw sends' p99 at 140–235 ms).
    public var batchRows: Int
    /// Longest an unindexed message waits while fewer than `batchRows` are waiting: when it
    /// is up, the writer indexes the tail between two batches of writes, or wakes for it
    /// when idle.
    public var interval: Duration

    public init(batchRows: Int = 200, interval: Duration = .milliseconds(1000)) {
        self.batchRows = max(1, batchRows)
        self.interval = max(.zero, interval)
    }
}
