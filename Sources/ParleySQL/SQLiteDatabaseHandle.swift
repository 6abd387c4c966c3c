import CSQLite

/// Owns one `sqlite3*` and closes it when the last user lets go.
///
/// Both the connection and every statement prepared on it hold this handle, so the database
/// stays open for as long as any of them is alive. That way the connection's statement cache
/// can hold statements strongly without a reference cycle, and a statement that outlives its
/// connection object still runs against an open database instead of a closed one.
final class SQLiteDatabaseHandle {
    /// The `sqlite3*`; valid for the lifetime of this object.
    let pointer: OpaquePointer

    init(pointer: OpaquePointer) {
        self.pointer = pointer
    }

    /// Rows changed by the most recent `INSERT`, `UPDATE` or `DELETE` on this connection.
    var changes: Int { Int(sqlite3_changes(pointer)) }

    deinit {
        // Every statement holds this handle, so all of them are finalized by now and a plain
        // close would succeed; the _v2 form is still the safe one should that ever change.
        sqlite3_close_v2(pointer)
    }
}
