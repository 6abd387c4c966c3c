import ParleySQL

// Backups of the database file (docs/operations.md, "Backup and restore").
extension SQLiteStore {
    /// Copies the database at `path`, live or not, into a new file at `destination`: one
    /// consistent snapshot taken with SQLite's backup API while writers go on.
    public static func backup(path: String, to destination: String) throws {
        let source = try SQLiteConnection(path: path, flags: [.readOnly])
        try source.backup(to: destination)
    }

    /// Whether the file at `path` is a whole SQLite database (`PRAGMA integrity_check`).
    public static func isIntact(path: String) throws -> Bool {
        let connection = try SQLiteConnection(path: path, flags: [.readOnly])
        return try connection.queryFirst("PRAGMA integrity_check") { try $0.string(0) } == "ok"
    }
}
