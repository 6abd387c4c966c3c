/// One step of a schema's history: the version it brings the database to, and how.
public struct SQLiteMigration: Sendable {
    /// The schema version after this step; positive, and increasing along the list.
    public let version: Int
    /// The change, run inside the migrator's transaction.
    let apply: @Sendable (SQLiteConnection) throws -> Void

    /// A step that runs an SQL script. `PRAGMA`s that cannot run in a transaction (such as
    /// `journal_mode` or `foreign_keys`) do nothing here; set them when opening instead.
    public init(version: Int, sql: String) {
        self.version = version
        self.apply = { connection in try connection.execute(sql) }
    }

    /// A step that runs Swift code, for changes that need to read data or compute values.
    public init(version: Int, _ apply: @escaping @Sendable (SQLiteConnection) throws -> Void) {
        self.version = version
        self.apply = apply
    }
}
