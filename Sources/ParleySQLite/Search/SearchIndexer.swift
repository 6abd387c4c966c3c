import ParleyCore
import ParleySQL
import ParleyStoreSupport

/// Brings the full-text index (`messages_search`) up to date with the messages sent since
/// its watermark (`search_index_watermark`, schema version 25), as the writer thread's
/// upkeep: in transactions of its own, of up to `SearchIndexSettings.batchRows` messages,
/// after their sends have been acknowledged.
///
/// **Exactly once.** The index rows and the watermark (the highest message id indexed) are
/// written in one transaction, so after a crash the index holds exactly the messages up to
/// the watermark and indexing goes on from there. Edits, recalls and deletions of messages
/// above the watermark need no index work (they are indexed with their text as it is then);
/// those at or below it are kept in the index by triggers, as before.
///
/// **No sync of its own.** The step commits with `synchronous = NORMAL`: a power cut may lose
/// it, but only whole (index rows and watermark together, the WAL's checksums see to it), and
/// the messages it covered are then indexed again. The next commit of a write syncs the WAL,
/// this step's pages with it.
///
/// Owned by the writer thread, like its connection; never used by two threads.
final class SearchIndexer: WriterUpkeep {
    private let connection: SQLiteConnection
    private let settings: SearchIndexSettings
    /// Messages above the watermark: those found at open (sent before a restart, or replayed
    /// from the message log), then counted as they are inserted. Inserts rolled back are
    /// counted too; a step that finds fewer than it was told sets this right.
    private var waiting: Int
    /// When the oldest of `waiting` arrived (or the last step failed): the interval runs from
    /// here.
    private var waitingSince: ContinuousClock.Instant
    /// Steps failed in a row; a failure makes the next step wait the interval, however many wait.
    private var failures = FailureStreak()
    /// Where failures and recoveries are told (the server's log).
    private let report: @Sendable (SearchIndexReport) -> Void

    /// Counts the messages waiting (on the opening thread, before the writer thread starts).
    init(connection: SQLiteConnection, settings: SearchIndexSettings,
         report: @escaping @Sendable (SearchIndexReport) -> Void = { _ in }) throws {
        self.connection = connection
        self.settings = settings
        self.report = report
        waiting = try connection.queryFirst(Self.waitingSQL) { try $0.int(0) } ?? 0
        waitingSince = ContinuousClock.now
    }

    /// A message row was inserted (in a transaction that may yet be rolled back: then a step
    /// finds less than it was told, which costs one empty step).
    func added() {
        if waiting == 0 { waitingSince = ContinuousClock.now }
        waiting += 1
    }

    func due(at now: ContinuousClock.Instant) -> Duration? {
        guard waiting > 0 else { return nil }
        if waiting >= settings.batchRows && failures.count == 0 { return .zero }
        return waitingSince.advanced(by: settings.interval) - now
    }

    func runStep(at now: ContinuousClock.Instant) {
        do {
            let indexed = try indexNextBatch()
            if let failedSteps = failures.succeeded() { report(.recovered(failedSteps: failedSteps)) }
            // A step short of a batch took everything; after a full one, the count says.
            waiting = indexed < settings.batchRows ? 0 : max(waiting - indexed, 0)
        } catch {
            // The tail stays searchable (by reading it); the next step tries again after the
            // interval. A failed write would fail the sends' commits too, which report it.
            waitingSince = now
            if failures.failed() {
                report(.stepFailed(reason: String(describing: error), failedSteps: failures.count, waiting: waiting))
            }
        }
    }

    /// Indexes the messages after the watermark, up to `batchRows` of them (system notices
    /// and texts recalled meanwhile count but are not indexed), and moves the watermark to
    /// the last of them; returns how many it looked at.
    func indexNextBatch() throws -> Int {
        let mode = try connection.synchronousMode()
        if mode.rawValue > SQLiteConnection.SynchronousMode.normal.rawValue { try connection.setSynchronousMode(.normal) }
        defer {
            if mode.rawValue > SQLiteConnection.SynchronousMode.normal.rawValue { try? connection.setSynchronousMode(mode) }
        }
        return try connection.transaction(kind: .immediate) {
            guard let watermark = try connection.queryFirst(Self.watermarkSQL, row: { try $0.int64(0) }) else {
                throw StoreError.failure("search index: the table search_index_watermark has lost its row")
            }
            guard let range = try connection.queryFirst(Self.rangeSQL, watermark, settings.batchRows, row: {
                (count: try $0.int(0), last: try $0.column(1, as: Int64?.self))
            }), let last = range.last else { return 0 }
            try connection.run(Self.indexSQL, watermark, last)
            try connection.run(Self.advanceSQL, last)
            return range.count
        }
    }

    static let watermarkSQL = "SELECT indexed_through FROM search_index_watermark"
    static let waitingSQL = "SELECT count(*) FROM messages WHERE id > (SELECT indexed_through FROM search_index_watermark)"
    /// How many messages the next step takes and the id of the last one.
    static let rangeSQL = "SELECT count(*), max(id) FROM (SELECT id FROM messages WHERE id > ?1 ORDER BY id LIMIT ?2)"
    static let indexSQL = """
        INSERT INTO messages_search (rowid, text)
        SELECT id, text FROM messages WHERE id > ?1 AND id <= ?2 AND kind <> 'system' AND text IS NOT NULL
        """
    static let advanceSQL = "UPDATE search_index_watermark SET indexed_through = ?1"
}
