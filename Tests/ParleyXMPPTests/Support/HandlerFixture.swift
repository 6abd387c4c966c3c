import CoreTestSupport
import Foundation
import ParleyCore
import ParleyNet
import ParleyProtocol
import ParleySQLite
import ParleySync
import Testing
@testable import ParleyXMPP

/// The gateway's services over the real core and a SQLite store in a temporary file, and the
/// standard handler table: handlers tested without a socket. What is not under test here
/// (password hashing, SMS, media bytes, the connection hub) is a plain stand-in.
final class HandlerFixture {
    let directory = NSTemporaryDirectory() + "parley-xmpp-" + UUID().uuidString
    let store: SQLiteStore
    let delivery = RecordingDelivery()
    let registry = RecordingRegistry()
    let services: XMPPServices
    let handlers = XMPPHandlerTable.standard(domain: HandlerFixture.domain)
    static let domain = "chat.test"

    /// `configure` adjusts the gateway's configuration (a media link signer, say).
    init(configure: (inout XMPPConfiguration) -> Void = { _ in }) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        store = try SQLiteStore(path: directory + "/xmpp.sqlite")
        let secrets = CountingSecrets()
        let clock: WallClock = { 1_800_000_000_000 }
        let context = MessagingContext(store: store, blocking: InlineBlocking(), delivery: delivery, secrets: secrets,
                                       rules: MessagingRules(), clock: clock)
        let rooms = RoomService(context: context)
        let media = MediaService(store: store, files: MemoryFiles(), secrets: secrets, blocking: InlineBlocking(), clock: clock)
        var configuration = XMPPConfiguration(domain: Self.domain, publicURL: "https://chat.test")
        configure(&configuration)
        services = XMPPServices(
            accounts: AccountService(store: store, passwords: PlainPasswords(), secrets: secrets, sms: NoSMS(),
                                     blocking: InlineBlocking(), clock: clock),
            social: SocialService(context: context), conversations: ConversationService(context: context),
            groups: GroupService(context: context), rooms: rooms, presence: PresenceService(context: context, rooms: rooms),
            uploads: UploadSlots(media: media, secrets: secrets, rules: UploadSlots.Rules(), clock: clock),
            privateStorage: PrivateStorageService(context: context),
            pep: PEPService(context: context, limits: PEPLimits(maxNodesPerUser: 3, maxItemBytes: 200, maxItemsPerNode: 4)),
            registry: registry, delivery: delivery,
            configuration: configuration,
            logger: Logger(label: "xmpp-test") { _ in }, media: media)
    }

    deinit {
        store.close()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A user straight in the store, and who they are as a stream signed in with resource "r".
    func user(_ name: String) async throws -> XMPPIdentity {
        let id = try await store.write { try $0.insertUser(NewUser(username: name, passwordHash: nil, phone: nil, createdAt: 1)) }.id
        let bare = JID(local: name, domain: Self.domain)
        return (id, bare, JID(local: name, domain: Self.domain, resource: "r"))
    }

    /// Makes two users friends through the core; returns their conversation.
    func befriend(_ a: UserID, _ b: UserID) async throws -> ConversationID {
        let request = try await services.social.requestFriend(from: a, FriendRequestParameters(userId: b), connection: nil)
        guard let id = request.request?.id else { throw MissingValue() }
        return try await services.social.accept(id, by: b).conversationId
    }

    /// A context for `me`'s stream that records what handlers do with it.
    func context() -> RecordingContext {
        RecordingContext(services: services, handlers: handlers)
    }

    /// Dispatches a presence to a user as the session does: through the table by its type.
    func present(_ type: String, to target: XMPPIdentity, me: XMPPIdentity, context: RecordingContext) async throws {
        let handler = try #require(handlers.presenceHandler(for: type))
        await handler.handle(XMLElement("presence", ["type": type, "to": target.bare.description]), to: target.bare, me: me, context: context)
    }

    /// Dispatches a `<message>` or `<presence>` as the session does: to the table's handler
    /// of its kind.
    func stanza(_ stanza: XMLElement, me: XMPPIdentity, context: RecordingContext) async {
        if stanza.name == "message" {
            await handlers.messages.handle(stanza, me: me, context: context)
        } else {
            await handlers.presence.handle(stanza, me: me, context: context)
        }
    }

    /// The newest stanza handed to other sessions that `matching` accepts, waited for a while
    /// (events that follow a change, as a profile's PEP events do, are handed over by a task).
    func forwarded(_ matching: (ForwardedStanza) -> Bool) async throws -> (ForwardedStanza, [UserID]) {
        for _ in 0..<200 {
            if let found = registry.forwarded.last(where: { matching($0.0) }) { return found }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw MissingValue()
    }

    /// Dispatches an iq payload as the session does: through the table to its handler.
    func answer(_ type: String, _ query: XMLElement, to target: String? = nil, me: XMPPIdentity,
                context: RecordingContext) async throws -> XMLElement? {
        let jid = target.flatMap(JID.init)
        guard let handler = handlers.service(for: jid) ?? handlers.handler(for: query) else { throw StanzaError.serviceUnavailable("no handler") }
        let request = XMPPRequest(type: type, query: query, target: jid, me: me, domain: Self.domain)
        return try await handler.answer(request, context: context)
    }
}

/// Brings a send's completion to the recording context, as a stream's loop does for its session.
struct ActorHop: CompletionHop {
    let context: RecordingContext
    func hop(_ work: @escaping @Sendable () -> Void) {
        Task { await context.run(work) }
    }
}

/// A handler context that keeps what was sent, learned and set, instead of a stream.
actor RecordingContext: XMPPHandlerContext {
    let services: XMPPServices
    let handlers: XMPPHandlerTable
    let token = ConnectionToken(42)
    private(set) var sent: [XMLElement] = []
    private(set) var learned: [UserID] = []
    private(set) var carbons: Bool?
    private(set) var account: Account?
    private(set) var rooms: [ConversationID: JoinedRoom] = [:]
    private var localParts: [UserID: String] = [:]
    private var peers: [UserID: ConversationID] = [:]
    private(set) var available = false
    private var everAvailable = false
    private(set) var caughtUp = 0
    private(set) var lastPublishedAsked = 0

    init(services: XMPPServices, handlers: XMPPHandlerTable) {
        self.services = services
        self.handlers = handlers
    }

    func send(_ element: XMLElement) { sent.append(element) }
    nonisolated var completionHop: any CompletionHop { ActorHop(context: self) }
    /// How many sends with no task were answered (`MessageHandler.startDirect`).
    private(set) var directSendsFinished = 0
    func directSendFinished() { directSendsFinished += 1 }
    /// Runs a hopped completion isolated to this context.
    func run(_ work: @Sendable () -> Void) { work() }
    /// `MessageHandler.startDirect` on this context, as the session's queue calls it.
    func startDirect(_ message: XMLElement, me: XMPPIdentity) -> Bool {
        handlers.messages.startDirect(message, me: me, context: self)
    }
    /// Knows `user` as a friend in `conversation`, as a roster fetch makes a stream know them.
    func know(_ user: UserID, in conversation: ConversationID) { peers[user] = conversation }
    func learn(_ friend: Friend) {
        learned.append(friend.user.id)
        peers[friend.user.id] = friend.conversationId
        localParts[friend.user.id] = XMPPDirectory.localPart(of: friend.user)
    }
    func setCarbons(_ enabled: Bool) { carbons = enabled }
    func accountChanged(_ account: Account) { self.account = account }
    func joinedChat(_ room: JID) -> (ConversationID, ConversationKind)? { joinedRoom(room).map { ($0.0, $0.1.kind) } }
    func joinedRoom(_ room: JID) -> (ConversationID, JoinedRoom)? {
        rooms.first { $0.value.jid == room.bare }.map { ($0.key, $0.value) }
    }
    func setJoined(_ room: JoinedRoom?, for conversation: ConversationID) { rooms[conversation] = room }
    func localPart(of user: UserID) -> String? { localParts[user] }
    func remember(_ profile: UserProfile) { localParts[profile.id] = XMPPDirectory.localPart(of: profile) }
    func knownConversation(with user: UserID) -> ConversationID? { peers[user] }
    func becomeAvailable() -> Bool {
        defer {
            available = true
            everAvailable = true
        }
        return !everAvailable
    }
    func catchUp(me: XMPPIdentity) async { caughtUp += 1 }
    func sendLastPublished(me: XMPPIdentity, of owners: [UserID]?) async { lastPublishedAsked += 1 }
    func becomeUnavailable() { available = false }
    func friendIDs() -> [UserID] { Array(peers.keys) }

    /// Forgets what was sent so far.
    func clearSent() { sent = [] }
}


final class MemoryFiles: MediaFileStoring {
    private let files = PThreadMutex<[String: [UInt8]]>([:])
    func save(id: String, bytes: [UInt8]) throws { files.withLock { $0[id] = bytes } }
    func load(id: String) throws -> [UInt8]? { files.withLock { $0[id] } }
    func delete(id: String) throws { _ = files.withLock { $0.removeValue(forKey: id) } }
    func adopt(id: String, from path: String) throws {
        let bytes = try prefix(ofFileAt: path, count: Int.max)
        files.withLock { $0[id] = bytes }
    }
    func prefix(ofFileAt path: String, count: Int) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else { throw MissingValue() }
        return Array(data.prefix(count))
    }
    func path(id: String) -> String? { nil }
}

/// No connections: keeps the stanzas handed to other users' gateway sessions.
final class RecordingRegistry: ConnectionRegistry {
    private let handed = PThreadMutex<[(ForwardedStanza, [UserID])]>([])

    var forwarded: [(ForwardedStanza, [UserID])] { handed.withLock { $0 } }

    func add(_ receiver: any EventReceiver, for user: UserID) -> Bool { true }
    func remove(_ receiver: any EventReceiver, for user: UserID) -> Bool { true }
    func closeConnections(of user: UserID, signedInWith sessionID: String) {}
    func forward(_ stanza: ForwardedStanza, to users: [UserID], excluding: ConnectionToken?) {
        handed.withLock { $0.append((stanza, users)) }
    }
}

struct MissingValue: Error {}
