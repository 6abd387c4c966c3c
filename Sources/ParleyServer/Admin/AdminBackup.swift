import Foundation
import ParleyNet
import ParleySQLite

/// `parley admin backup` and `restore` (docs/operations.md, "Backup and restore").
///
/// A backup is a directory: `parley.sqlite` (an online, consistent copy taken with SQLite's
/// backup API, so the server may keep writing meanwhile), `server.secret` (without it the
/// restored server could not read what was sealed with it), and `media/` (uploads).
/// PostgreSQL is backed up with its own tools; the command says how.
public enum AdminBackup {
    public static func backup(_ configuration: ServerConfiguration, to destination: String) throws -> String {
        guard configuration.store.isEmpty else {
            throw AdminConsoleError("""
                this server keeps its data in PostgreSQL: back it up with PostgreSQL's tools, e.g.
                  pg_dump --format=custom --file=parley.dump "<the --store connection string>"
                and restore with pg_restore into an empty database; copy \(configuration.dataDirectory)/\(ServerSecret.fileName) and media/ beside it
                """)
        }
        let files = FileManager.default
        let source = configuration.dataDirectory + "/parley.sqlite"
        guard files.fileExists(atPath: source) else { throw AdminConsoleError("no database at \(source)") }
        guard !files.fileExists(atPath: destination) else { throw AdminConsoleError("\(destination) exists; give a new path") }
        try files.createDirectory(atPath: destination, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try SQLiteStore.backup(path: source, to: destination + "/parley.sqlite")
        try copyIfPresent(configuration.dataDirectory + "/" + ServerSecret.fileName, to: destination + "/" + ServerSecret.fileName)
        try copyIfPresent(configuration.dataDirectory + "/media", to: destination + "/media")
        return "backed up \(source) to \(destination)"
    }

    /// `backup` of a data directory no server runs on. If it has a message log, the store is
    /// opened with it and closed first (whatever flags this command was given): the open
    /// replays into the database file what only the log holds (rows acknowledged in
    /// `--message-log-apply later` mode before a kill or a power cut), so the copy has them too.
    public static func backupStopped(_ configuration: ServerConfiguration, to destination: String) throws -> String {
        if configuration.store.isEmpty && FileManager.default.fileExists(atPath: configuration.dataDirectory + "/message-log") {
            var quiet = configuration
            quiet.messageLog = "segment"
            quiet.messageLogApply = "now"
            quiet.databaseReaders = 1
            try ParleyServer.openStore(quiet, logger: Logger(label: "parley-admin", minimumLevel: .error)).close()
        }
        return try backup(configuration, to: destination)
    }

    /// Restores a backup into `dataDirectory`, which must be empty or absent: a restore never
    /// overwrites data.
    public static func restore(from source: String, into dataDirectory: String) throws -> String {
        let files = FileManager.default
        let database = source + "/parley.sqlite"
        guard files.fileExists(atPath: database) else { throw AdminConsoleError("\(source) is not a backup: it has no parley.sqlite") }
        if files.fileExists(atPath: dataDirectory) {
            let contents = try files.contentsOfDirectory(atPath: dataDirectory)
            guard contents.isEmpty else {
                throw AdminConsoleError("\(dataDirectory) is not empty; restore only into an empty data directory")
            }
        }
        guard try SQLiteStore.isIntact(path: database) else { throw AdminConsoleError("\(database) is damaged (integrity check failed)") }
        try files.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try files.copyItem(atPath: database, toPath: dataDirectory + "/parley.sqlite")
        try copyIfPresent(source + "/" + ServerSecret.fileName, to: dataDirectory + "/" + ServerSecret.fileName)
        try copyIfPresent(source + "/media", to: dataDirectory + "/media")
        return "restored \(source) into \(dataDirectory)"
    }

    private static func copyIfPresent(_ path: String, to destination: String) throws {
        guard FileManager.default.fileExists(atPath: path) else { return }
        try FileManager.default.copyItem(atPath: path, toPath: destination)
    }
}
