import ParleyCore
import ParleyProtocol
import ParleySync

/// This server's bound XMPP resources (RFC 6120 §7) per user, with the presence each last
/// broadcast, and which resource sent which recent message. Presence is per resource in XMPP
/// but per user in Parley's core: this is what lets a stream that becomes available learn
/// the full JIDs its contacts and its own other resources are available at (the live changes
/// reach it as forwarded presence, `ForwardedStanza`), and a message's recipient name the
/// sending resource in `from` (RFC 6120 §8.1.2.1) and keep its `<origin-id>` (XEP-0359).
///
/// Local to the server: in a cluster, resources on other servers are known from the presence
/// they broadcast, and their messages come from the bare JID's `Self.nativeResource`.
final class XMPPResources: Sendable {
    /// A bound resource: its name, its stream, and its presence's children (`show`, `status`,
    /// `priority`, caps, …) once it is available (nil before its initial presence).
    struct Entry: Sendable {
        var name: String
        var token: ConnectionToken
        var presence: [XMLElement]?
    }

    /// Where a message came from: the sending resource and the client's `<origin-id>`.
    struct Origin: Sendable, Equatable {
        var resource: String
        var originID: String?
    }

    /// The resource name under which a user's native (WebSocket) connections appear to
    /// Jabber contacts when their own resources are not known here (connected to another
    /// server of a cluster), and the one their messages come from when the sending
    /// connection is not known.
    static let nativeResource = "parley"
    /// Origins kept per user (the newest), and messages awaiting a receipt: enough for the
    /// messages still being delivered (`--xmpp-receipts-kept`).
    let kept: Int

    private struct UserState {
        /// The user's bound resources, names unique, in the order they were bound. An array,
        /// not a dictionary: a user has one or a few streams, and one entry in an array is
        /// half the memory of one in a dictionary (every idle signed-in stream holds it).
        var resources: [Entry] = []
        /// What the user's streams sent lately; nil until one sends (`recentMessages`).
        var recent: RecentMessages?
    }

    /// A user's recent messages, made at the first send or marker: a reference, so that a
    /// user whose streams only signed in keeps two words in the stripe's table (the table
    /// holds twice its users' entries when it has just grown) instead of seven. Touched only
    /// under its user's stripe lock.
    private final class RecentMessages {
        /// Where the user's recent messages came from, by client id.
        var origins: RecentOrigins<Origin>
        /// Sent messages waiting for the native peer's delivered or read marker.
        var awaited: AwaitedReceipts

        init(kept: Int) {
            origins = RecentOrigins(limit: kept)
            awaited = AwaitedReceipts(limit: kept)
        }
    }

    /// `user`'s recent messages, made if the user has none yet; the user's state too, if
    /// `creatingUser` (a send notes its origin even then), else nil without it.
    private func recentMessages(of user: UserID, in table: inout [UserID: UserState], creatingUser: Bool) -> RecentMessages? {
        if let recent = table[user]?.recent { return recent }
        guard creatingUser || table[user] != nil else { return nil }
        let recent = RecentMessages(kept: kept)
        table[user, default: UserState()].recent = recent
        return recent
    }

    /// Users' states, spread over stripes by user id: every delivered message looks its
    /// sender up, from every loop, so one lock for all would be contended.
    private let stripes: [PThreadMutex<[UserID: UserState]>] = (0..<XMPPResources.stripeCount).map { _ in PThreadMutex([:]) }
    private static let stripeCount = 32

    /// The user's native connections' resources, whose names a stream cannot bind.
    let native: NativeResources?

    init(kept: Int = 64, native: NativeResources? = nil) {
        self.kept = max(1, kept)
        self.native = native
    }

    /// The stripe holding `user`'s state.
    private func stripe(_ user: UserID) -> PThreadMutex<[UserID: UserState]> {
        stripes[Int(UInt64(bitPattern: user.rawValue) % UInt64(Self.stripeCount))]
    }

    /// A stream binds `requested`; returns the resource it gets: the one asked for, or, if
    /// another stream of the user holds it or it is a name of the user's native clients, that
    /// name with a suffix (RFC 6120 §7.7.2.2: the server may assign another).
    func bind(_ user: UserID, requested: String, token: ConnectionToken) -> String {
        let nativeNames = Set(native?.resources(of: user).map(\.name) ?? [])
        return stripe(user).withLock { table in
            var resource = requested
            while resource == Self.nativeResource || nativeNames.contains(resource)
                    || table[user]?.resources.contains(where: { $0.name == resource }) == true {
                // At most 200 characters (800 bytes) before the suffix: within a JID part.
                resource = String(requested.prefix(200)) + "-" + String(UInt32.random(in: 0...UInt32.max), radix: 36)
            }
            // in place: the state is not copied out and back (its arrays would be copied)
            table[user, default: UserState()].resources.append(Entry(name: resource, token: token, presence: nil))
            return resource
        }
    }

    /// A resumed stream (XEP-0198) took the resource over from the stream `old`.
    func takeOver(_ user: UserID, resource: String, from old: ConnectionToken, to new: ConnectionToken) {
        stripe(user).withLock { table in
            guard let index = table[user]?.resources.firstIndex(where: { $0.name == resource && $0.token == old }) else { return }
            table[user]?.resources[index].token = new
        }
    }

    /// The stream's resource sent `presence` (its children; nil: unavailable).
    func setPresence(_ user: UserID, resource: String, token: ConnectionToken, presence: [XMLElement]?) {
        stripe(user).withLock { table in
            guard let index = table[user]?.resources.firstIndex(where: { $0.name == resource && $0.token == token }) else { return }
            table[user]?.resources[index].presence = presence
        }
    }

    /// The stream ended: its resource is gone, unless a newer stream bound it since.
    func unbind(_ user: UserID, resource: String, token: ConnectionToken) {
        stripe(user).withLock { table in
            guard let index = table[user]?.resources.firstIndex(where: { $0.name == resource && $0.token == token }) else { return }
            table[user]?.resources.remove(at: index)
            // The user's last stream here: the origins go too (what they sent has been
            // delivered by now, or comes from the bare JID's native resource).
            if table[user]?.resources.isEmpty == true { table[user] = nil }
        }
    }

    /// The user's available resources and their presence children.
    func available(_ user: UserID) -> [(resource: String, presence: [XMLElement])] {
        stripe(user).withLock { table in
            (table[user]?.resources ?? []).compactMap { entry in entry.presence.map { (entry.name, $0) } }
        }.sorted { $0.resource < $1.resource }
    }

    /// Whether the user has a bound XMPP stream on this server (available or not).
    func hasStreams(_ user: UserID) -> Bool {
        streamCount(user) > 0
    }

    /// How many XMPP streams the user has bound on this server.
    func streamCount(_ user: UserID) -> Int {
        stripe(user).withLock { $0[user]?.resources.count ?? 0 }
    }

    /// Notes that `resource` is sending the message with `clientID`: called before it is
    /// stored, so that its delivery finds it.
    func sending(_ user: UserID, clientID: String, origin: Origin) {
        stripe(user).withLock { table in
            // in place, not copied out and back (`RecentOrigins` says why)
            recentMessages(of: user, in: &table, creatingUser: true)?.origins.note(origin, for: clientID)
        }
    }

    /// Where the user's message with `clientID` came from: its resource if one of this
    /// server's streams sent it, nil otherwise (a native client, or another server).
    func origin(of user: UserID, clientID: String?) -> Origin? {
        guard let clientID else { return nil }
        return stripe(user).withLock { $0[user]?.recent?.origins[clientID] }
    }

    /// Notes a stored 1:1 message sent by one of the user's streams that asked for a receipt
    /// or is markable, so the peer's markers can be answered (`AwaitedReceipts`).
    /// Returns the answer at once if the peer's markers passed the message already.
    func awaitReceipt(_ user: UserID, _ message: AwaitedReceipts.Sent) -> AwaitedReceipts.Answer {
        stripe(user).withLock { table in
            // Only while the user has a stream here: the state goes with the last one.
            recentMessages(of: user, in: &table, creatingUser: false)?.awaited.record(message) ?? AwaitedReceipts.Answer()
        }
    }

    /// What the peer's markers moving in `conversation` answer to the user's streams; each
    /// message is answered once, for all the user's streams on this server.
    func answerReceipts(_ user: UserID, in conversation: ConversationID, delivered: Int64?, read: Int64?) -> AwaitedReceipts.Answer {
        stripe(user).withLock { table in
            // Made if need be: the markers seen are kept for a send that returns after them.
            return recentMessages(of: user, in: &table, creatingUser: false)?.awaited.answer(in: conversation, delivered: delivered, read: read)
                ?? AwaitedReceipts.Answer()
        }
    }
}
