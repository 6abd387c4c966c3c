public import Foundation
public import ParleyProtocol

/// A Parley account on this device: signs in over HTTP, keeps one WebSocket up by itself
/// (reconnecting with backoff, signing in again, re-entering rooms, catching up with `sync`),
/// sends through a durable outbox, and keeps a local cache so that an app opens with its data
/// before the network answers.
///
/// Isolation: an actor. Every piece of state — the cache and outbox (one SQLite connection),
/// the live socket, the requests in flight — is touched only on it, so calls from any task
/// are safe. Events and connection states leave through `AsyncStream`s that any number of
/// subscribers can hold (`events()`, `connectionStates()`), and the current state can be read
/// without awaiting (`connectionState`).
///
/// Lifetime: a started client keeps itself alive (its connection task holds it) until
/// `stop()` or `logout()`.
public actor ParleyClient {
    /// One live WebSocket, numbered so that callbacks from an older one are recognised.
    struct Link {
        let generation: Int
        let socket: any TransportSocket
        var reader: Task<Void, Never>?
    }

    /// A request waiting for its response.
    struct PendingRequest {
        let generation: Int
        let continuation: CheckedContinuation<Result<(Data, Range<Int>?), ParleyError>, Never>
        let timeout: Task<Void, Never>
    }

    /// The configuration it was made with.
    public nonisolated let configuration: Configuration
    let store: LocalStore
    let http: HTTPClient
    let webSocketURL: URL
    nonisolated let eventHub = Broadcaster<ParleyEvent>()
    nonisolated let stateHub = Broadcaster<ConnectionState>(initial: .offline(reason: .stopped, retryIn: nil), replaysLatest: true)

    /// The session token; nil when signed out.
    var token: String?
    /// The signed-in account.
    var me: Account?
    /// Whether the client should be connected (between `start` and `stop`).
    var running = false
    /// Numbers each `start`, so that a supervisor from before a `stop` recognises itself as stale.
    var run = 0
    var supervisor: Task<Void, Never>?
    var link: Link?
    var generation = 0
    var state: ConnectionState = .offline(reason: .stopped, retryIn: nil)
    /// Why the last link closed, for the supervisor.
    var lastCloseReason: OfflineReason = .stopped
    var closeWaiter: (generation: Int, continuation: CheckedContinuation<OfflineReason, Never>)?
    var nextRequestID: Int64 = 0
    var pending: [Int64: PendingRequest] = [:]
    var nextWaiterID = 0
    var onlineWaiters: [Int: CheckedContinuation<Result<Void, ParleyError>, Never>] = [:]
    var backoffSleep: (continuation: CheckedContinuation<Void, Never>, timer: Task<Void, Never>)?
    var flushing = false
    var flushRequested = false
    var acknowledgementWaiters: [String: [CheckedContinuation<Result<Message, ParleyError>, Never>]] = [:]
    var refreshScheduled = false
    /// Asked for again while a refresh was in flight: its answer may predate what came since.
    var refreshAgain = false
    /// Live messages waiting for earlier ones, per conversation (see `receiveLive`).
    var heldBack: [ConversationID: [Message]] = [:]
    /// The link whose catch-up (`sync`) is running; live messages wait for it.
    var catchingUp: Int?
    /// The last presence reported per friend, so repeats are not passed on (seed 001).
    var presence: [UserID: Bool] = [:]
    /// The resources each user (friends, and the signed-in user) is known to be online on, by
    /// resource name (`ParleyClient+Resources`).
    var resourcesByUser: [UserID: [String: ResourcePresence]] = [:]

    /// Opens (or creates) the local database and reads the saved session, if any. Call
    /// `start()` to connect.
    public init(configuration: Configuration) throws(ParleyError) {
        guard let webSocketURL = configuration.webSocketURL,
              ["http", "https"].contains(configuration.server.scheme ?? "") else {
            throw ParleyError.transport("the server URL must be http:// or https://, not \(configuration.server)")
        }
        self.configuration = configuration
        self.webSocketURL = webSocketURL
        http = HTTPClient(base: configuration.server, userAgent: configuration.userAgent, timeout: configuration.requestTimeout,
                          transport: configuration.transport)
        store = try LocalStore(path: configuration.databasePath)
        let savedToken = try store.meta("token")
        let savedAccount = try store.account()
        // A token without its account (a half-finished sign-in) is of no use.
        if let savedToken, let savedAccount {
            token = savedToken
            me = savedAccount
        }
    }

    /// A client of `server` with its data in `databasePath` (nil: in memory), otherwise defaults.
    public init(server: URL, databasePath: String? = nil) throws(ParleyError) {
        try self.init(configuration: Configuration(server: server, databasePath: databasePath))
    }

    deinit {
        link?.socket.close(code: 1000)
        eventHub.finish()
        stateHub.finish()
    }

    // MARK: Observing

    /// A new stream of everything that happens from now on (each call makes an independent
    /// subscriber; end it by cancelling the task that iterates it).
    public nonisolated func events() -> AsyncStream<ParleyEvent> {
        eventHub.subscribe()
    }

    /// A new stream of connection states, starting with the current one.
    public nonisolated func connectionStates() -> AsyncStream<ConnectionState> {
        stateHub.subscribe()
    }

    /// The connection state now.
    public nonisolated var connectionState: ConnectionState {
        stateHub.latest ?? .offline(reason: .stopped, retryIn: nil)
    }

    /// The signed-in account (from the cache until the server answers), or nil.
    public var account: Account? { me }

    /// Whether an account is signed in on this device.
    public var isSignedIn: Bool { token != nil }

    func emit(_ event: ParleyEvent) {
        eventHub.publish(event)
    }

    func publish(_ newState: ConnectionState) {
        guard newState != state else { return }
        state = newState
        stateHub.publish(newState)
    }
}
