/// Hashes and checks passwords (argon2id in the server). Both calls are slow on purpose and
/// block: callers run them through a `BlockingExecutor`.
public protocol PasswordHashing: Sendable {
    func hash(_ password: String) throws -> String
    func verify(_ password: String, against hash: String) -> Bool
}

/// Derives the SCRAM credentials (RFC 5802) of a password, one per supported mechanism, with
/// a fresh salt. Slow on purpose (PBKDF2) and blocking, like `PasswordHashing`.
public protocol SCRAMCredentialDeriving: Sendable {
    /// The mechanisms `derive` covers.
    var mechanisms: [String] { get }
    func derive(password: String) -> [StoredSCRAMCredential]
}

/// Random secrets and their hashes.
public protocol SecretGenerating: Sendable {
    /// A bearer token with 256 random bits.
    func token() -> String
    /// A random public identifier (sessions, media), 128 bits.
    func identifier() -> String
    /// A code of `digits` decimal digits, uniformly random.
    func numericCode(digits: Int) -> String
    /// SHA-256 of `secret`, for storing tokens and codes.
    func hash(_ secret: String) -> [UInt8]
}

/// Delivers SMS codes (a file outbox in development, a webhook to a gateway in production).
public protocol SMSSending: Sendable {
    func send(phone: String, code: String) async throws
}

/// Runs blocking work away from event loops and the async runtime's few threads.
public protocol BlockingExecutor: Sendable {
    func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T
}

/// The current time in ms since the epoch; injected so tests can move it.
public typealias WallClock = @Sendable () -> Int64
