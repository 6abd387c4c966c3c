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
        /// Requests a second one WebSocket may make on average, and in a burst.
        var requestsPerSecond: Double
        var requestBurst: Double
    }

    let accounts: AccountService
    let media: MediaService
    /// Upload slots (XMPP's HTTP upload), shared by the gateway that grants them and the
    /// HTTP route that takes the bytes.
    let uploads: UploadSlots
    let social: SocialService
    let conversations: ConversationService
    let groups: GroupService
    let rooms: RoomService
    let presence: PresenceService
    let hub: ConnectionHub
    /// Where events go: the hub itself, or the cluster delivery in front of it (`--nats`).
    let delivery: any Delivery
    let limits: Limits
    let logger: Logger
    /// WebSocket operations by name.
    let operations: [String: OperationHandler]
    /// The hot operations, run on their connection's loop without a task.
    let loopOperations: [String: LoopOperationHandler]

    init(accounts: AccountService, media: MediaService, uploads: UploadSlots, messaging: MessagingContext, hub: ConnectionHub,
         delivery: any Delivery, limits: Limits, logger: Logger) {
        self.delivery = delivery
        self.accounts = accounts
        self.media = media
        self.uploads = uploads
        social = SocialService(context: messaging)
        conversations = ConversationService(context: messaging)
        groups = GroupService(context: messaging)
        rooms = RoomService(context: messaging)
        presence = PresenceService(context: messaging, rooms: rooms)
        self.hub = hub
        self.limits = limits
        self.logger = logger
        operations = Operations.table(accounts: accounts, social: social, conversations: conversations, groups: groups,
                                      rooms: rooms, delivery: delivery)
        loopOperations = Operations.loopTable(conversations: conversations)
    }
}
