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
    /// Images: PEP avatars (XEP-0084) are read from and stored as media; nil turns them off.
    public let media: MediaService?
    /// The avatars' SHA-1 ids, by media id (`PEPHandler+Avatar`).
    let avatarIDs = AvatarIDs()
    /// What clients' caps stand for (XEP-0115), for PEP `+notify`.
    let caps = CapsFeatures()
    /// Private XML (XEP-0049) and roster names and groups, per user.
    public let privateStorage: PrivateStorageService
    /// Personal eventing nodes clients publish to (XEP-0163), other than the profile's.
    public let pep: PEPService
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
    /// The user's native connections on this server, each a resource of its own.
    public let nativeResources: NativeResources
    /// Push registrations (XEP-0357) of users' Jabber clients.
    let pushRegistrations: XMPPPushRegistrations
    /// Native resources' changes, broadcast one at a time in the order they happened.
    private let nativeChanges: AsyncStream<NativeResources.Change>.Continuation

    public init(accounts: AccountService, social: SocialService, conversations: ConversationService, groups: GroupService,
                rooms: RoomService, presence: PresenceService, uploads: UploadSlots, privateStorage: PrivateStorageService,
                pep: PEPService, registry: ConnectionRegistry, delivery: Delivery, configuration: XMPPConfiguration, logger: Logger,
                deletion: AccountDeletionService? = nil, nativeResources: NativeResources = NativeResources(),
                media: MediaService? = nil,
                clientStateChanged: @escaping @Sendable (ConnectionToken, _ active: Bool) -> Void = { _, _ in }) {
        self.nativeResources = nativeResources
        self.media = media
        resources = XMPPResources(kept: configuration.receiptsKept, native: nativeResources)
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
        self.pep = pep
        self.registry = registry
        self.delivery = delivery
        self.configuration = configuration
        self.logger = logger
        directory = XMPPDirectory(domain: configuration.domain, accounts: accounts)
        pushRegistrations = XMPPPushRegistrations(limit: configuration.maxPushRegistrations)
        let (changes, continuation) = AsyncStream<NativeResources.Change>.makeStream()
        nativeChanges = continuation
        nativeResources.observe { continuation.yield($0) }
        nativeResources.lookUpJabber { [resources] user in
            resources.available(user).map { PresenceHandler.resourcePresence($0.resource, $0.presence, of: user) }
        }
        // One consumer, so that a resource's presences go out in the order they changed (a
        // sign-in and a quick sign-out must not arrive the other way round).
        Task { [social, registry, delivery, domain = directory.domain] in
            for await change in changes {
                await Self.announce(change, social: social, registry: registry, delivery: delivery, domain: domain)
            }
        }
        // A profile changed anywhere (native clients, vCard, PEP) is a PEP event of its nick
        // and avatar nodes to the XMPP streams of the user and the user's friends.
        accounts.observeProfileChanges { [weak self] change in
            guard let self else { return }
            Task { await self.profileChanged(change) }
        }
    }

    /// The PEP events of a profile change (XEP-0172 nickname, XEP-0084 avatar metadata), from
    /// the user's bare JID.
    func profileChanged(_ change: ProfileChange) async {
        let profile = change.account.profile
        let jid = JID(local: XMPPDirectory.localPart(of: profile), domain: directory.domain)
        if change.nickname {
            await PEPHandler.announce(PEPHandler.items(profile.nickname, namespace: Namespace.pubsubEvent), owner: profile.id, from: jid,
                                      services: self)
        }
        if change.avatar, let media {
            await PEPHandler.announce(await PEPHandler.metadataEvent(profile.avatar, media: media, services: self), owner: profile.id,
                                      from: jid, services: self)
        }
    }

    deinit {
        nativeChanges.finish()
    }

    /// Broadcasts a native resource's presence to the user's friends and to the user's own
    /// XMPP streams, as an XMPP stream's own presence goes (`PresenceHandler.broadcast`), and
    /// to their native clients as `presence.resource`.
    private static func announce(_ change: NativeResources.Change, social: SocialService, registry: ConnectionRegistry,
                                 delivery: Delivery, domain: String) async {
        let friends = (try? await social.allFriends(of: change.user).map(\.user.id)) ?? []
        let from = JID(local: change.local, domain: domain, resource: change.resource)
        registry.forward(ForwardedStanza(stanza: "presence", type: change.now == nil ? "unavailable" : nil, id: nil,
                                         from: from.description, children: NativePresence.children(change.now)),
                         to: friends + [change.user], excluding: nil)
        delivery.deliver(.resourcePresence(NativeResources.presence(change.resource, change.now, of: change.user)),
                         to: friends + [change.user], excluding: nil)
    }
}
