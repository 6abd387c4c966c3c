internal import CPostgres
import Glibc
import ParleyCore

/// One libpq connection. Every call blocks until the server answers, so a connection belongs
/// to one of the store's own threads and is used only there (it is not `Sendable`).
///
/// Statements with parameters are prepared once per connection (`PQprepare`) and then run by
/// name, so the server parses and plans each SQL text once, not once per call. Values are
/// always bound as parameters (`$1`, `$2`, ...), never spliced into the SQL.
///
/// Round trips are what a store on a network database pays for, so commands whose answer
/// nobody waits for (`SAVEPOINT`) can be deferred: they travel with the next statement, in
/// one libpq pipeline, and cost no round trip of their own.
final class PostgresConnection {
    private var handle: OpaquePointer
    /// Kept for reconnecting; never logged (it may hold a password).
    private let connectionString: String
    /// Prepared statement names by SQL text; cleared when the connection is re-established,
    /// since prepared statements live and die with the server session.
    private var prepared: [String: String] = [:]
    /// The last deadlock or serialization failure since `clearTransientFailure()`: the
    /// transaction that saw one must be retried as a whole, whatever its callers did with
    /// the error.
    private(set) var transientFailure: PostgresError?
    /// Parameterless commands to send ahead of the next statement (see `deferCommand`).
    private var deferred: [String] = []
    /// Set when a pipeline broke off halfway: the session's state is unknown, so the
    /// connection counts as lost until `reconnect()`.
    private var isBroken = false

    /// Connects with a libpq connection string (`postgres://user@host:port/db` or
    /// `host=... dbname=...`).
    init(connectionString: String) throws(PostgresError) {
        self.connectionString = connectionString
        handle = try Self.connect(connectionString)
    }

    private static func connect(_ connectionString: String) throws(PostgresError) -> OpaquePointer {
        guard let handle = PQconnectdb(connectionString) else {
            throw PostgresError(sqlState: "", message: "libpq could not allocate a connection", constraint: nil)
        }
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = connectionMessage(handle)
            PQfinish(handle)
            throw PostgresError(sqlState: "", message: "cannot connect to PostgreSQL: \(message)", constraint: nil)
        }
        // The default notice processor prints to stderr ("relation already exists, skipping");
        // the store has nothing to learn from notices.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        return handle
    }

    deinit {
        PQfinish(handle)
    }

    /// Whether the connection to the server is up (as far as libpq knows).
    var isConnected: Bool { !isBroken && PQstatus(handle) == CONNECTION_OK }

    /// Whether a transaction is open (in progress or failed).
    var isInTransaction: Bool {
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR
    }

    /// Whether the open transaction has failed: until it is rolled back (to a savepoint),
    /// every statement in it is refused.
    var isInFailedTransaction: Bool { PQtransactionStatus(handle) == PQTRANS_INERROR }

    /// Drops the connection and makes a new one with the same settings (a new libpq
    /// connection, so nothing of the old one's state, such as an unfinished pipeline, is
    /// carried over). Until it succeeds the old, broken connection stays, and every call on
    /// it fails.
    func reconnect() throws(PostgresError) {
        let fresh = try Self.connect(connectionString)
        PQfinish(handle)
        handle = fresh
        isBroken = false
        prepared.removeAll()
        deferred.removeAll()
        transientFailure = nil
    }

    func clearTransientFailure() {
        transientFailure = nil
    }

    /// Queues a command without parameters (`SAVEPOINT x`) to go out with whatever is sent
    /// next, in the same round trip. Its failure is reported by that next call, which then
    /// does not run.
    func deferCommand(_ sql: String) {
        deferred.append(sql)
    }

    /// Forgets deferred commands not sent yet (when what they prepared is abandoned).
    func discardDeferred() {
        deferred.removeAll()
    }

    /// Runs SQL without parameters through the simple protocol (several statements may be
    /// separated by semicolons, and deferred commands go first): transaction control and
    /// schema migrations. The result is the last statement's.
    @discardableResult
    func execute(_ sql: String) throws(PostgresError) -> PostgresResult {
        guard !isBroken else { throw brokenError }
        let text = deferred.isEmpty ? sql : (deferred + [sql]).joined(separator: "; ")
        deferred.removeAll()
        return try checked(PQexec(handle, text))
    }

    /// Runs one statement with `parameters` bound to `$1`, `$2`, ...
    ///
    /// `planEachCall` skips the prepared statement: the server plans the statement anew
    /// for these very values. For statements whose best plan depends on the values (a
    /// search pattern common or rare): a prepared statement switches to one generic plan
    /// after five runs, and for a pattern it cannot see that plan can be slower by orders of
    /// magnitude (docs/benchmarks.md, section m).
    func query(_ sql: String, _ parameters: [PostgresValue], planEachCall: Bool = false) throws(PostgresError) -> PostgresResult {
        guard !isBroken else { throw brokenError }
        let name = planEachCall ? nil : try preparedName(for: sql, parameterCount: parameters.count)
        // libpq copies the values into its output buffer before returning, so they need only
        // live for the call.
        var values: [UnsafeMutablePointer<CChar>?] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        values.reserveCapacity(parameters.count)
        defer { for value in values { free(value) } }
        for parameter in parameters {
            switch parameter {
            case .null:
                values.append(nil)
                lengths.append(0)
                formats.append(0)
            case .text(let text):
                // Text-format values travel as C strings: an embedded NUL would cut the value
                // short without a word. PostgreSQL cannot store NUL in text anyway.
                guard !text.utf8.contains(0) else {
                    throw PostgresError(sqlState: "22021", message: "text with a NUL character cannot be stored", constraint: nil)
                }
                values.append(strdup(text))
                lengths.append(0)
                formats.append(0)
            case .bytes(let bytes):
                let buffer = malloc(max(1, bytes.count))!.assumingMemoryBound(to: CChar.self)
                bytes.withUnsafeBytes { raw in
                    if let base = raw.baseAddress { memcpy(buffer, base, raw.count) }
                }
                values.append(buffer)
                lengths.append(Int32(bytes.count))
                formats.append(1)
            }
        }
        let raw = values.map { UnsafePointer($0) }
        return try raw.withUnsafeBufferPointer { valuePointers throws(PostgresError) in
            try lengths.withUnsafeBufferPointer { lengthPointers throws(PostgresError) in
                try formats.withUnsafeBufferPointer { formatPointers throws(PostgresError) in
                    let count = Int32(parameters.count)
                    guard let name else {
                        if deferred.isEmpty {
                            return try checked(PQexecParams(handle, sql, count, nil, valuePointers.baseAddress, lengthPointers.baseAddress,
                                                            formatPointers.baseAddress, 1))
                        }
                        return try pipelined { () -> Int32 in
                            PQsendQueryParams(handle, sql, count, nil, valuePointers.baseAddress, lengthPointers.baseAddress,
                                              formatPointers.baseAddress, 1)
                        }
                    }
                    if deferred.isEmpty {
                        return try checked(PQexecPrepared(handle, name, count, valuePointers.baseAddress,
                                                          lengthPointers.baseAddress, formatPointers.baseAddress, 1))
                    }
                    return try pipelined { () -> Int32 in
                        PQsendQueryPrepared(handle, name, count, valuePointers.baseAddress,
                                            lengthPointers.baseAddress, formatPointers.baseAddress, 1)
                    }
                }
            }
        }
    }

    /// Sends the deferred commands and then the statement `send` queues, in one pipeline and
    /// one round trip, and returns the statement's result. A deferred command that fails
    /// makes the server skip the statement; its error is the one thrown.
    private func pipelined(_ send: () -> Int32) throws(PostgresError) -> PostgresResult {
        let commands = deferred
        deferred.removeAll()
        guard PQenterPipelineMode(handle) == 1 else { throw connectionError() }
        var sent = true
        for command in commands where sent {
            sent = PQsendQueryParams(handle, command, 0, nil, nil, nil, nil, 0) == 1
        }
        sent = sent && send() == 1 && PQpipelineSync(handle) == 1
        guard sent else {
            // The connection broke while sending. It is left broken (every later call fails)
            // until the store's thread reconnects between transactions, so that no later
            // statement of this transaction can run, or seem to commit, on a new session.
            isBroken = true
            throw connectionError()
        }
        // One result (then a NULL) per command and for the statement, then the sync point.
        var firstError: PostgresError?
        var statementResult: PostgresResult?
        for index in 0...commands.count {
            guard let result = PQgetResult(handle) else {
                isBroken = true
                firstError = firstError ?? connectionError()
                break
            }
            while let extra = PQgetResult(handle) { PQclear(extra) }
            if PQresultStatus(result) == PGRES_PIPELINE_ABORTED {
                PQclear(result)
                continue
            }
            do {
                let checkedResult = try checked(result)
                if index == commands.count { statementResult = checkedResult }
            } catch {
                firstError = firstError ?? error
            }
        }
        // Up to and including the sync point, so the connection is ready for the next call.
        while let result = PQgetResult(handle) {
            let status = PQresultStatus(result)
            PQclear(result)
            if status == PGRES_PIPELINE_SYNC { break }
        }
        if PQexitPipelineMode(handle) != 1 {
            isBroken = true
            firstError = firstError ?? connectionError()
        }
        if let firstError { throw firstError }
        guard let statementResult else { throw connectionError() }
        return statementResult
    }

    private var brokenError: PostgresError {
        PostgresError(sqlState: "", message: "the connection to PostgreSQL was lost", constraint: nil)
    }

    private func connectionError() -> PostgresError {
        PostgresError(sqlState: "", message: Self.connectionMessage(handle), constraint: nil)
    }

    /// The name of `sql` prepared on this connection, preparing it the first time.
    private func preparedName(for sql: String, parameterCount: Int) throws(PostgresError) -> String {
        if let name = prepared[sql] { return name }
        let name = "parley_\(prepared.count)"
        // Parameter types are left to the server to infer from each statement's context.
        _ = try checked(PQprepare(handle, name, sql, Int32(parameterCount), nil))
        prepared[sql] = name
        return name
    }

    /// `result` if it reports success; otherwise its error (and the result is freed).
    private func checked(_ result: OpaquePointer?) throws(PostgresError) -> PostgresResult {
        guard let result else {
            throw PostgresError(sqlState: "", message: Self.connectionMessage(handle), constraint: nil)
        }
        let status = PQresultStatus(result)
        if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_EMPTY_QUERY {
            return PostgresResult(handle: result)
        }
        func field(_ code: Int32) -> String? {
            PQresultErrorField(result, code).map { String(cString: $0) }
        }
        let error = PostgresError(sqlState: field(parley_pg_diag_sqlstate) ?? "",
                                  message: field(parley_pg_diag_message) ?? Self.connectionMessage(handle),
                                  constraint: field(parley_pg_diag_constraint))
        PQclear(result)
        if error.isTransient { transientFailure = error }
        throw error
    }

    private static func connectionMessage(_ handle: OpaquePointer) -> String {
        guard let message = PQerrorMessage(handle) else { return "unknown libpq error" }
        // libpq ends its messages with a newline.
        var text = Substring(String(cString: message))
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return String(text)
    }
}
