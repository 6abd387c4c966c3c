/// Brings a database's schema up to date by running the migrations it has not had yet, in
/// order, each in its own `IMMEDIATE` transaction together with the `PRAGMA user_version`
/// that records it, so a crash leaves the database at one version or the next, never between.
///
/// A database whose version is newer than any migration known here is refused: this build
/// does not know what that schema means, and writing to it could damage it.
///
/// Several processes may migrate the same file at once: each step re-reads the version after
/// taking the write lock, so a step is applied exactly once. Set a busy timeout on the
/// connection so that the others wait rather than fail.
public struct SQLiteMigrator: Sendable {
    /// The steps, in increasing order of version.
    public let migrations: [SQLiteMigration]

    /// Creates a migrator for `migrations`, whose versions must be positive and strictly
    /// increasing (gaps are allowed). The list is part of the code, so a wrong one traps.
    public init(_ migrations: [SQLiteMigration]) {
        var previous = 0
        for migration in migrations {
            precondition(migration.version > previous,
                         "migration versions must be positive and increasing; \(migration.version) follows \(previous)")
            previous = migration.version
        }
        self.migrations = migrations
    }

    /// The version a fully migrated database has (0 with no migrations).
    public var latestVersion: Int { migrations.last?.version ?? 0 }

    /// Runs every migration newer than the database's version and returns the versions
    /// applied (empty when it was already up to date). A failing step is rolled back and its
    /// error thrown; the steps before it stay applied.
    @discardableResult
    public func migrate(_ connection: SQLiteConnection) throws -> [Int] {
        let startVersion = try connection.userVersion()
        try check(startVersion)
        guard startVersion < latestVersion else { return [] }
        var applied: [Int] = []
        for migration in migrations where migration.version > startVersion {
            let didApply = try connection.transaction(kind: .immediate) { () throws -> Bool in
                // Another connection may have migrated while this one waited for the lock.
                let current = try connection.userVersion()
                try check(current)
                guard current < migration.version else { return false }
                try migration.apply(connection)
                try connection.setUserVersion(migration.version)
                return true
            }
            if didApply { applied.append(migration.version) }
        }
        return applied
    }

    private func check(_ version: Int) throws {
        guard version <= latestVersion else {
            throw SQLiteMigrationError.databaseNewerThanCode(databaseVersion: version, latestKnownVersion: latestVersion)
        }
    }
}
