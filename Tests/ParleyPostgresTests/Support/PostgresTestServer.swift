import Foundation
@testable import ParleyPostgres
import ParleySync
import Synchronization
import Testing

/// A PostgreSQL server of the test process's own: started on first use in a temporary
/// directory (`initdb`, then `postgres` on a free loopback port and a socket directory inside
/// it), shared by every test of the process, each of which gets a fresh database. It is
/// stopped, and its directory deleted, when the process exits; should the process die
/// without exiting, the server gets SIGINT from the kernel (a parent-death signal), so no
/// server outlives its tests.
///
/// PostgreSQL refuses to run as root, so when the tests run as root the server runs as the
/// `postgres` system user (the Debian package creates it), through `setpriv`.
final class PostgresTestServer: Sendable {
    /// Where Debian's `postgresql` package puts the server binaries.
    static let binDirectory: String? = {
        let base = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []
        return versions.compactMap(Int.init).sorted(by: >).map { "\(base)/\($0)/bin" }
            .first { FileManager.default.isExecutableFile(atPath: $0 + "/postgres") && FileManager.default.isExecutableFile(atPath: $0 + "/initdb") }
    }()

    /// Whether the tests can run: the binaries are installed (`make test-deps` installs them).
    static var isAvailable: Bool { binDirectory != nil }

    /// Why tests are skipped when they are.
    static let unavailableReason: Comment =
        "PostgreSQL server binaries not found under /usr/lib/postgresql/*/bin (install Debian's postgresql package: make test-deps)"

    /// The shared server, started on first use.
    static func shared() throws -> PostgresTestServer {
        switch sharedServer {
        case .success(let server): return server
        case .failure(let error): throw error
        }
    }

    // Swift runs a global's initializer once, on first use, whatever the thread.
    private static let sharedServer: Result<PostgresTestServer, any Error> = Result { try PostgresTestServer() }

    /// The server's `max_connections`.
    static let maxConnections = 300
    /// Test databases in use at once (`withPostgresDatabase`): a test's stores hold up to about
    /// ten connections (two stores of a reader, a writer and a listener each, plus the
    /// test's own), so this keeps well under `maxConnections` however many tests run.
    static let databaseSlots = DatabaseSlots(count: 20)

    let directory: String
    let port: Int
    private let process: Process
    private let databaseCount = Atomic<Int>(0)

    private init() throws {
        guard let bin = Self.binDirectory else { throw ServerError(reason: "no PostgreSQL binaries") }
        directory = try Self.makeDirectory()
        let data = directory + "/data"
        let sockets = directory + "/sockets"
        try FileManager.default.createDirectory(atPath: sockets, withIntermediateDirectories: true)
        let runAs = geteuid() == 0 ? try Self.systemUser("postgres") : nil
        if let runAs {
            // The server's user must own its data directory and reach the socket directory.
            for path in [directory, sockets] where chown(path, runAs.uid, runAs.gid) != 0 {
                throw ServerError(reason: "cannot hand \(path) to the postgres user: errno \(errno)")
            }
        }

        // --no-sync and the settings below trade durability for speed: this server's data
        // is thrown away with the directory.
        try Self.run(bin + "/initdb", ["-D", data, "-U", "parley", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"],
                     as: runAs, log: directory + "/initdb.log")

        port = try Self.freePort()
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        server.arguments = Self.credentials(runAs) + ["--pdeathsig", "INT", "--", bin + "/postgres", "-D", data,
                           "-h", "127.0.0.1", "-p", String(port), "-k", sockets,
                           "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
                           "-c", "max_connections=\(Self.maxConnections)", "-c", "shared_buffers=32MB", "-c", "deadlock_timeout=100ms"]
        _ = FileManager.default.createFile(atPath: directory + "/server.log", contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: directory + "/server.log"))
        server.standardOutput = log
        server.standardError = log
        try server.run()
        process = server
        Self.runningPID.store(server.processIdentifier, ordering: .sequentiallyConsistent)
        Self.runningDirectory.withLock { $0 = directory }
        atexit { PostgresTestServer.stopAtExit() }

        // Ready when it accepts a connection.
        let deadline = Date().addingTimeInterval(60)
        while true {
            if (try? PostgresConnection(connectionString: adminConnectionString)) != nil { break }
            guard server.isRunning, Date() < deadline else {
                let output = (try? String(contentsOfFile: directory + "/server.log", encoding: .utf8)) ?? ""
                throw ServerError(reason: "PostgreSQL did not start: \(output.suffix(2000))")
            }
            usleep(50_000)
        }
    }

    /// A libpq connection string for `database` as the superuser `parley`.
    func connectionString(database: String) -> String {
        "postgres://parley@127.0.0.1:\(port)/\(database)"
    }

    private var adminConnectionString: String { connectionString(database: "postgres") }

    /// Creates a new, empty database and returns its connection string.
    func createDatabase() throws -> String {
        let name = "parley_test_\(getpid())_\(databaseCount.add(1, ordering: .relaxed).newValue)"
        let admin = try PostgresConnection(connectionString: adminConnectionString)
        // A name made of digits and letters only, never outside input.
        try admin.execute("CREATE DATABASE \(name)")
        return connectionString(database: name)
    }

    /// Drops a database made by `createDatabase` (its stores must be closed).
    func dropDatabase(_ connectionString: String) {
        guard let name = connectionString.split(separator: "/").last else { return }
        _ = try? PostgresConnection(connectionString: adminConnectionString).execute("DROP DATABASE IF EXISTS \(name)")
    }

    // MARK: Process lifetime

    private static let runningPID = Atomic<Int32>(0)
    private static let runningDirectory = PThreadMutex<String?>(nil)

    /// Fast shutdown (SIGINT: disconnect clients, stop), then the directory goes.
    private static func stopAtExit() {
        let pid = runningPID.exchange(0, ordering: .sequentiallyConsistent)
        guard pid > 0 else { return }
        kill(pid, SIGINT)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        if let directory = runningDirectory.withLock({ $0 }) {
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    // MARK: Helpers

    struct ServerError: Error, CustomStringConvertible {
        let reason: String
        var description: String { reason }
    }

    private static func makeDirectory() throws -> String {
        var template = Array((NSTemporaryDirectory() + "/parley-pg-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw ServerError(reason: "mkdtemp failed: errno \(errno)") }
        return String(cString: made)
    }

    private static func systemUser(_ name: String) throws -> (uid: uid_t, gid: gid_t) {
        guard let entry = getpwnam(name) else {
            throw ServerError(reason: "running as root, and there is no '\(name)' user to run PostgreSQL as")
        }
        return (entry.pointee.pw_uid, entry.pointee.pw_gid)
    }

    private static func credentials(_ user: (uid: uid_t, gid: gid_t)?) -> [String] {
        guard let user else { return [] }
        return ["--reuid=\(user.uid)", "--regid=\(user.gid)", "--clear-groups"]
    }

    /// Runs a tool to completion, as `user` when given.
    private static func run(_ tool: String, _ arguments: [String], as user: (uid: uid_t, gid: gid_t)?, log: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = credentials(user) + ["--pdeathsig", "KILL", "--", tool] + arguments
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw ServerError(reason: "\(tool) failed (\(process.terminationStatus)): \(output.suffix(2000))")
        }
    }

    /// A port nothing listens on right now (bound to port 0, then released).
    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerError(reason: "socket failed: errno \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw ServerError(reason: "bind failed: errno \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw ServerError(reason: "getsockname failed: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
