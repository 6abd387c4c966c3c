import ParleyCore
import ParleyNet
import ParleyXMPP

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
    /// The blocking pool: downloads read their files' pieces on it, off the event loops.
    let pool: BlockingPool
    /// Who may fetch uploads, and their signed links.
    let mediaAccess: MediaAccess
    /// Thumbnails of large images, made on first request.
    let thumbnails: Thumbnails
    /// Upload slots (XMPP's HTTP upload), shared by the gateway that grants them and the
    /// HTTP route that takes the bytes.
    let uploads: UploadSlots
    let social: SocialService
    let conversations: ConversationService
    let groups: GroupService
    let rooms: RoomService
    let presence: PresenceService
    /// What the XMPP gateway keeps per user (private XML, roster names and groups).
    let privateStorage: PrivateStorageService
    /// Personal eventing nodes of Jabber clients (XEP-0163).
    let pep: PEPService
    /// Deleting accounts (HTTP and the Jabber gateway's XEP-0077).
    let deletion: AccountDeletionService
    /// Account exports being built or ready for download.
    let exports: AccountExports
    let hub: ConnectionHub
    /// Where events go: the hub itself, or the cluster delivery in front of it (`--nats`).
    let delivery: any Delivery
    /// Where connections sign in and out and are acted on: the same hub or cluster delivery.
    let registry: any ConnectionRegistry
    let limits: Limits
    let logger: Logger
    /// WebSocket operations by name.
    let operations: OperationTable
    /// Push notifications for members who are away.
    let push: PushDispatcher
    /// Where devices register for them.
    let pushRegistration: PushRegistration
    /// Users' reports (`report.create`).
    let reports: ReportService
    /// What administrators may do (`/v1/admin/…`).
    let admin: AdminService
    /// Native connections as the Jabber gateway's resources (one per signed-in device).
    let nativeResources: NativeResources

    init(accounts: AccountService, media: MediaService, pool: BlockingPool, uploads: UploadSlots, messaging: MessagingContext, hub: ConnectionHub,
         delivery: any Delivery, registry: any ConnectionRegistry, limits: Limits, logger: Logger, push: PushDispatcher,
         mediaURLs: MediaURLSigner, thumbnails: Thumbnails,
         pushRegistration: PushRegistration, exports: AccountExports, moderation: ModerationRules = ModerationRules(),
         nativeResources: NativeResources = NativeResources(), pepLimits: PEPLimits = PEPLimits()) {
        self.nativeResources = nativeResources
        self.exports = exports
        self.delivery = delivery
        self.registry = registry
        self.accounts = accounts
        self.media = media
        self.pool = pool
        mediaAccess = MediaAccess(context: messaging, signer: mediaURLs)
        self.thumbnails = thumbnails
        self.uploads = uploads
        social = SocialService(context: messaging)
        conversations = ConversationService(context: messaging)
        groups = GroupService(context: messaging)
        rooms = RoomService(context: messaging)
        presence = PresenceService(context: messaging, rooms: rooms)
        privateStorage = PrivateStorageService(context: messaging)
        pep = PEPService(context: messaging, limits: pepLimits)
        deletion = AccountDeletionService(accounts: accounts, groups: groups, rooms: rooms, context: messaging, media: media)
        reports = ReportService(context: messaging, rules: moderation)
        admin = AdminService(accounts: accounts, context: messaging, groups: groups, deletion: deletion, rules: moderation,
                             registry: registry)
        self.hub = hub
        self.limits = limits
        self.logger = logger
        self.push = push
        self.pushRegistration = pushRegistration
        operations = Operations.table(accounts: accounts, social: social, conversations: conversations, groups: groups,
                                      rooms: rooms, delivery: delivery, activity: push.activity, reports: reports,
                                      mediaAccess: mediaAccess, native: nativeResources)
        push.activity.observe { [nativeResources] token, active in nativeResources.clientState(token, active: active) }
    }
}
