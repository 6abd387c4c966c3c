import CSQLite

// Online backup (SQLite's backup API): a consistent copy of a database that others keep
// writing to.
extension SQLiteConnection {
    /// Copies this database, as one snapshot, into a new file at `destination` (which must
    /// not exist). All pages are copied in one step, inside one read transaction: in WAL mode
    /// writers (this process's or another's) go on meanwhile, and the copy is the database as
    /// it was when the step began. Waits up to `busyTimeoutMilliseconds` for a lock.
    public func backup(to destination: String, busyTimeoutMilliseconds: Int32 = 10_000) throws {
        sqlite3_busy_timeout(database.pointer, busyTimeoutMilliseconds)
        let target = try SQLiteConnection(path: destination, flags: [.readWrite, .create, .noFollow])
        guard let backup = sqlite3_backup_init(target.database.pointer, "main", database.pointer, "main") else {
            throw SQLiteError(resultCode: sqlite3_errcode(target.database.pointer), database: target.database.pointer, sql: nil)
        }
        var rc = sqlite3_backup_step(backup, -1)
        // A lock held by a writer at the start: wait and try again, a bounded number of times.
        var tries = 0
        while (rc == SQLITE_BUSY || rc == SQLITE_LOCKED) && tries < 100 {
            tries += 1
            sqlite3_sleep(50)
            rc = sqlite3_backup_step(backup, -1)
        }
        let finished = sqlite3_backup_finish(backup)
        guard rc == SQLITE_DONE else {
            throw SQLiteError(extendedCode: rc, message: "the backup stopped: \(String(cString: sqlite3_errstr(rc)))")
        }
        guard finished == SQLITE_OK else {
            throw SQLiteError(resultCode: finished, database: target.database.pointer, sql: nil)
        }
    }
}
