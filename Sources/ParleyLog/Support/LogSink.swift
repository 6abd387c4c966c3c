/// Where `GroupCommit` writes a batch: an engine's durable write. Called by one thread at a
/// time (the batch's leader), never concurrently.
protocol LogSink: AnyObject, Sendable {
    /// Writes `records` (already checked: seqs continue, payloads within the limit) and
    /// returns once they are durable.
    func writeDurably(_ records: [LogRecord]) throws(LogError)
}
