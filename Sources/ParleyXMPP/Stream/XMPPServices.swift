public import ParleyCore
public import ParleyNet

/// The core services every XMPP stanza maps onto, and the registry sessions sign in to.
public final class XMPPServices: Sendable {
    public let accounts: AccountService
    public let social: SocialService
    public let conversations: ConversationService
    public let groups: GroupService
    public let rooms: RoomService
    public let presence: PresenceService
    /// HTTP upload slots (XEP-0363).
    public let uploads: UploadSlots
    /// Private XML (XEP-0049) and roster names and groups, per user.
    public let privateStorage: PrivateStorageService
    public let registry: ConnectionRegistry
    /// For the events a gateway itself causes (a profile changed by vCard).
    public let delivery: Delivery
    public let directory: XMPPDirectory
    public let configuration: XMPPConfiguration
    public let logger: Logger
    /// Deleting accounts (in-band, XEP-0077); nil turns account removal over XMPP off.
    public let deletion: AccountDeletionService?
    /// Told when a stream's client says it is inactive (false) or active again (true), and
    /// true when the stream ends (client state indication, XEP-0352): push notifications
    /// count an inactive stream as away, like a native client's `client.state inactive`.
    public let clientStateChanged: @Sendable (ConnectionToken, _ active: Bool) -> Void
    /// Streams that may be resumed, by resumption id.
    let resumable = ResumableSessions()
    /// Bound resources, their presence, and the origins of recent messages.
    let resources: XMPPResources

    public init(accounts: AccountService, social: SocialService, conversations: ConversationService, groups: GroupService,
                rooms: RoomService, presence: PresenceService, uploads: UploadSlots, privateStorage: PrivateStorageService,
                registry: ConnectionRegistry, delivery: Delivery, configuration: XMPPConfiguration, logger: Logger,
                deletion: AccountDeletionService? = nil,
                clientStateChanged: @escaping @Sendable (ConnectionToken, _ active: Bool) -> Void = { _, _ in }) {
        self.deletion = deletion
        self.clientStateChanged = clientStateChanged
        self.accounts = accounts
        self.social = social
        self.conversations = conversations
        self.groups = groups
        self.rooms = rooms
        self.presence = presence
        self.uploads = uploads
        self.privateStorage = privateStorage
        self.registry = registry
        self.delivery = delivery
        self.configuration = configuration
        self.logger = logger
        directory = XMPPDirectory(domain: configuration.domain, accounts: accounts)
        resources = XMPPResources(kept: configuration.receiptsKept)
    }
}
