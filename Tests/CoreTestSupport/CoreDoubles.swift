public import ParleyCore
public import ParleyProtocol
import ParleySync

// Stand-ins for the core's dependencies that are not what a test is about, shared by the test
// targets that run the core's services without a server (a library, not a test target).

/// A `Delivery` that keeps what the core sent, to whom, leaving whom out, and answers online
/// state from a set the test controls: the core's decisions, seen without a server.
public final class RecordingDelivery: Delivery {
    public struct Sent: Equatable, Sendable {
        public let event: ServerEvent
        public let users: [UserID]
        public let excluding: ConnectionToken?
        public init(event: ServerEvent, users: [UserID], excluding: ConnectionToken?) {
            self.event = event
            self.users = users
            self.excluding = excluding
        }
    }

    private let sent = PThreadMutex<[Sent]>([])
    private let online = PThreadMutex<Set<UserID>>([])

    public init() {}

    public func setOnline(_ users: UserID..., online isOnline: Bool = true) {
        online.withLock { set in for user in users { if isOnline { set.insert(user) } else { set.remove(user) } } }
    }

    /// Everything sent so far.
    public var events: [Sent] { sent.withLock { $0 } }

    /// Everything sent so far, and forgets it.
    public func take() -> [Sent] {
        sent.withLock { list in
            defer { list.removeAll() }
            return list
        }
    }

    public func deliver(_ event: ServerEvent, to users: [UserID], excluding: ConnectionToken?) -> [UInt8]? {
        sent.withLock { $0.append(Sent(event: event, users: users, excluding: excluding)) }
        return nil
    }

    public func isOnline(_ user: UserID) -> Bool { online.withLock { $0.contains(user) } }

    public func isOnline(_ user: UserID, excluding: ConnectionToken?) -> Bool { isOnline(user) }
}

/// Blocking work run in place: the store already keeps its own threads.
public struct InlineBlocking: BlockingExecutor {
    public init() {}
    public func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T { try work() }
}

/// Identifiers and tokens that are unique and readable (not secret: a test's).
public final class CountingSecrets: SecretGenerating {
    private let counter = PThreadMutex<Int>(0)
    public init() {}
    private func next() -> Int { counter.withLock { $0 += 1; return $0 } }
    public func token() -> String { "token-\(next())" }
    public func identifier() -> String { "id-\(next())" }
    public func numericCode(digits: Int) -> String { String(repeating: "1", count: digits) }
    public func hash(_ secret: String) -> [UInt8] { Array(secret.utf8) }
}

/// Passwords are not what these tests are about.
public struct PlainPasswords: PasswordHashing {
    public init() {}
    public func hash(_ password: String) throws -> String { "plain:" + password }
    public func verify(_ password: String, against hash: String) -> Bool { hash == "plain:" + password }
}

/// SMS codes go nowhere.
public struct NoSMS: SMSSending {
    public init() {}
    public func send(phone: String, code: String) async throws {}
}

/// A wall clock the test moves.
public final class TestClock: Sendable {
    private let millis = PThreadMutex<Int64>(1_800_000_000_000)
    public init() {}
    public var now: Int64 { millis.withLock { $0 } }
    public func advance(milliseconds: Int64) { millis.withLock { $0 += milliseconds } }
}
