/// Why `SQLiteMigrator` refused to migrate.
public enum SQLiteMigrationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The database was written by a newer build, with a schema this one does not know.
    case databaseNewerThanCode(databaseVersion: Int, latestKnownVersion: Int)

    /// What happened and what to do about it.
    public var description: String {
        switch self {
        case let .databaseNewerThanCode(databaseVersion, latestKnownVersion):
            return "the database has schema version \(databaseVersion), but this build knows only up to "
                + "version \(latestKnownVersion); run a newer build or restore a backup made by this one"
        }
    }
}
