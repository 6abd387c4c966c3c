/// The message rows the writer has handed out but not yet inserted into SQLite
/// (`--message-log apply later`): those committed by earlier transactions (handed to the
/// `message-log` thread, synced or not yet) followed by those of the open transaction
/// (handed at its commit), in id order, with what the
/// send path needs to hand out the next ones without reading them from SQLite: the last seq
/// given in each conversation and the (sender, client id) pairs used. A row carries the
/// delivered marker its send moved (`deliver`), which moves with its insert, so markers wait,
/// are applied and are undone with their rows.
///
/// Rows are applied front first, inside a write transaction (`MessageLogJournal.apply`);
/// `applied` counts those inserted in the open transaction, which only its commit confirms.
/// Every change of the open transaction can be undone: a write's savepoint (`beginWrite`,
/// `undoWrite`) or the whole transaction (`rollBack`) take back its rows, the seqs they
/// took (so seqs stay gapless) and its applies.
///
/// Owned by the writer thread; only `waiting` is shared with other threads.
final class UnappliedMessages {
    /// (sender, client id): what the unique index of `messages` keeps apart.
    private struct ClientKey: Hashable {
        var sender: Int64
        var clientID: String
    }

    /// Where a write's savepoint began.
    private struct Mark {
        var rows: Int
        var applied: Int
        var seqChanges: Int
    }

    private(set) var rows: [LoggedMessage] = []
    /// `rows[..<committedCount]` were committed by earlier transactions.
    private var committedCount = 0
    /// Rows applied for good (committed in SQLite) since the store opened: the position of
    /// `rows[0]` in commit order.
    private var appliedForGood = 0
    /// `rows[..<applied]` were inserted into SQLite in the open transaction.
    private(set) var applied = 0
    /// The last seq handed out per conversation with rows here (or applied since).
    private var lastSeqs: [Int64: Int64] = [:]
    /// What the open transaction changed in `lastSeqs`, oldest first: (conversation, previous).
    private var seqChanges: [(conversation: Int64, previous: Int64?)] = []
    private var clientKeys: Set<ClientKey> = []
    private var marks: [Mark] = []
    /// Rows acknowledged (synced) and not in SQLite's committed state, for readers
    /// (`SQLiteStore.read`); the `message-log` thread counts the synced ones.
    let waiting = UnappliedCount()
    /// When the oldest of the committed rows was committed (nil: none waits).
    private(set) var waitingSince: ContinuousClock.Instant?

    /// Rows committed (handed to the log) and not yet applied for good.
    var committedRows: Int { committedCount }

    /// Whether the open transaction applied a row the `message-log` thread has not synced yet
    /// (one of its own, or one handed off and still on its way): its commit must then be
    /// synced by SQLite before any reader could see the row (`MessageLogJournal`).
    var appliesUnsyncedRows: Bool { applied > 0 && appliedForGood + applied > waiting.syncedRows }

    /// Whether a row waits to be applied in the open transaction.
    var hasRowsToApply: Bool { applied < rows.count }

    /// The seq after both SQLite's `last_seq` of `conversation` and any seq handed out here.
    func nextSeq(in conversation: Int64, afterStored stored: Int64) -> Int64 {
        max(stored, lastSeqs[conversation] ?? 0) + 1
    }

    /// Whether a row here used `clientID` of `sender`.
    func holds(sender: Int64, clientID: String) -> Bool {
        clientKeys.contains(ClientKey(sender: sender, clientID: clientID))
    }

    /// A row handed out by the open transaction (its seq from `nextSeq`).
    func add(_ row: LoggedMessage) {
        rows.append(row)
        seqChanges.append((row.conversation, lastSeqs[row.conversation]))
        lastSeqs[row.conversation] = row.seq
        if let key = Self.key(of: row) { clientKeys.insert(key) }
    }

    /// Whether the newest row is (`conversation`, `seq`), handed out by the open transaction,
    /// not yet applied, and moves no other recipient's delivered marker.
    func canDeliver(conversation: Int64, seq: Int64, to user: Int64) -> Bool {
        guard let last = rows.last, rows.count - 1 >= max(applied, committedCount) else { return false }
        return last.conversation == conversation && last.seq == seq && (last.deliveredTo == nil || last.deliveredTo == user)
    }

    /// The recipient's delivered marker moves with the insert of the newest row (`canDeliver`);
    /// undone with the row.
    func deliver(to user: Int64) {
        rows[rows.count - 1].deliveredTo = user
    }

    /// `count` more rows from the front were inserted in the open transaction.
    func applied(_ count: Int) {
        applied = min(rows.count, applied + count)
    }

    /// Only `rows[..<count]` of those applied are really in the transaction (a savepoint of a
    /// closure's own undid the rest).
    func confirmApplied(_ count: Int) {
        applied = min(applied, count)
    }

    func beginWrite() {
        marks.append(Mark(rows: rows.count, applied: applied, seqChanges: seqChanges.count))
    }

    func keepWrite() { _ = marks.popLast() }

    /// The write's savepoint was undone: its rows, seqs and applies with it.
    func undoWrite() {
        guard let mark = marks.popLast() else { return }
        undo(to: mark)
    }

    /// The transaction was rolled back: its rows and applies are gone; the committed rows
    /// wait on.
    func rollBack() {
        undo(to: Mark(rows: committedCount, applied: 0, seqChanges: 0))
        marks.removeAll(keepingCapacity: true)
    }

    /// The transaction committed: its applied rows are in SQLite for good, the rest wait
    /// (and are acknowledged once the `message-log` thread has synced them).
    func committed(at now: ContinuousClock.Instant) {
        for row in rows[..<applied] {
            if let key = Self.key(of: row) { clientKeys.remove(key) }
        }
        rows.removeFirst(applied)
        appliedForGood += applied
        if committedCount <= applied || waitingSince == nil { waitingSince = rows.isEmpty ? nil : now }
        applied = 0
        committedCount = rows.count
        seqChanges.removeAll(keepingCapacity: true)
        marks.removeAll(keepingCapacity: true)
        // Nothing waits: SQLite's counters say it all (and a conversation deleted since
        // leaves nothing behind).
        if rows.isEmpty { lastSeqs.removeAll(keepingCapacity: true) }
        waiting.setApplied(appliedForGood)
    }

    private func undo(to mark: Mark) {
        for row in rows[mark.rows...] {
            if let key = Self.key(of: row) { clientKeys.remove(key) }
        }
        rows.removeSubrange(mark.rows...)
        applied = min(applied, mark.applied)
        while seqChanges.count > mark.seqChanges, let change = seqChanges.popLast() {
            lastSeqs[change.conversation] = change.previous
        }
    }

    private static func key(of row: LoggedMessage) -> ClientKey? {
        guard let sender = row.sender, let clientID = row.clientID else { return nil }
        return ClientKey(sender: sender, clientID: clientID)
    }
}
