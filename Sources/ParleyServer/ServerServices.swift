import ParleyCore
import ParleyNet

/// Everything request handlers need, built once at start-up and shared by every loop.
final class ServerServices: Sendable {
    /// Limits of the realtime side.
    struct Limits: Sendable {
        /// How long a new WebSocket may take to send `auth`.
        var webSocketAuthTimeout: Duration
        /// Requests one WebSocket may have waiting; more close it with 1008.
        var maxQueuedRequestsPerConnection: Int
    }

    let accounts: AccountService
    let media: MediaService
    let hub: ConnectionHub
    let limits: Limits
    let logger: Logger
    /// WebSocket operations by name; filled once by `Operations.table`.
    let operations: [String: OperationHandler]

    init(accounts: AccountService, media: MediaService, hub: ConnectionHub, limits: Limits, logger: Logger) {
        self.accounts = accounts
        self.media = media
        self.hub = hub
        self.limits = limits
        self.logger = logger
        operations = Operations.table(accounts: accounts, hub: hub)
    }
}
