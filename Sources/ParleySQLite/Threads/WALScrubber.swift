import ParleySQL

/// Erases what a recall removed from the files as well as from the tables. The writer
/// connection runs with `secure_delete`, so the page written by the recall holds zeros where
/// the text was; the page's earlier images in the WAL still hold it, so after a commit that
/// recalled something the WAL is checkpointed into the database and truncated.
///
/// Owned by the writer thread, like its connection; never used by two threads.
final class WALScrubber {
    /// Set by a write that erased content; cleared by `scrubIfRequested`.
    var requested = false

    /// After a commit: the checkpoint, if a write asked for one. It waits for readers (the
    /// busy timeout) and is best effort: a checkpoint that cannot finish leaves the WAL to
    /// the next one.
    func scrubIfRequested(_ connection: SQLiteConnection) {
        guard requested else { return }
        requested = false
        _ = try? connection.query("PRAGMA wal_checkpoint(TRUNCATE)") { _ in () }
    }
}
