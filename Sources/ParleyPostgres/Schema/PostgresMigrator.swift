import ParleyCore

/// One step of the schema's history: SQL run once, in order, by `PostgresMigrator`.
struct PostgresMigration: Sendable {
    /// Steps run in ascending version; each is recorded in `schema_version` once applied.
    let version: Int
    /// Statements separated by semicolons.
    let sql: String
}

/// Brings a database's schema up to date, safely when several servers start at once.
///
/// Everything happens in one transaction that first takes a transaction-level advisory lock
/// (`pg_advisory_xact_lock`): the first server to arrive migrates, the others wait for its
/// commit and then find nothing left to do. A failing step rolls back the whole run, so a
/// database is never left half-migrated. A database whose version is newer than this build
/// knows is refused, rather than used with a schema the code does not understand.
struct PostgresMigrator: Sendable {
    /// The advisory lock key: any fixed number other programs sharing the database are
    /// unlikely to use ("parley" in ASCII).
    static let lockKey: Int64 = 0x70_61_72_6c_65_79

    let migrations: [PostgresMigration]

    init(_ migrations: [PostgresMigration]) {
        precondition(zip(migrations, migrations.dropFirst()).allSatisfy { $0.version < $1.version },
                     "migrations must be in ascending version order")
        self.migrations = migrations
    }

    /// Applies the steps the database lacks and returns their versions (empty when it was up
    /// to date).
    func migrate(_ connection: PostgresConnection) throws -> [Int] {
        try connection.execute("BEGIN")
        do {
            _ = try connection.query("SELECT pg_advisory_xact_lock($1)", [Self.lockKey.postgresValue])
            try connection.execute("""
                CREATE TABLE IF NOT EXISTS schema_version (
                    version    BIGINT PRIMARY KEY,
                    applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
                )
                """)
            let current = try connection.query("SELECT coalesce(max(version), 0) FROM schema_version", []).row(0).int64(0)
            let latest = migrations.last.map { Int64($0.version) } ?? 0
            guard current <= latest else {
                throw StoreError.failure("the database has schema version \(current); this build knows only up to \(latest)")
            }
            var applied: [Int] = []
            for migration in migrations where Int64(migration.version) > current {
                try connection.execute(migration.sql)
                _ = try connection.query("INSERT INTO schema_version (version) VALUES ($1)", [migration.version.postgresValue])
                applied.append(migration.version)
            }
            try connection.execute("COMMIT")
            return applied
        } catch {
            if connection.isInTransaction { _ = try? connection.execute("ROLLBACK") }
            throw error
        }
    }
}
