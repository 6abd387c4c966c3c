import ParleyProtocol

/// What every messaging service shares: the store, the way to clients, the clock and the
/// rules. One instance per server.
public final class MessagingContext: Sendable {
    let gateway: StoreGateway
    let delivery: Delivery
    let clock: WallClock
    let rules: MessagingRules
    let secrets: SecretGenerating
    /// Who is in which room right now (shared with the other servers of a cluster).
    public let rooms = RoomOccupancy()
    /// Members of 1:1 and group conversations, so a send need not read them from the store.
    let membership: MembershipCache
    /// Told of every new message after its delivery (push notifications for the absent).
    let notifications: (any MessageNotifying)?

    public init(store: Store, blocking: BlockingExecutor, delivery: Delivery, secrets: SecretGenerating,
                rules: MessagingRules = MessagingRules(), clock: @escaping WallClock, notifications: (any MessageNotifying)? = nil) {
        gateway = StoreGateway(store: store, blocking: blocking)
        self.delivery = delivery
        self.secrets = secrets
        self.rules = rules
        self.clock = clock
        membership = MembershipCache(capacity: rules.membershipCacheConversations)
        self.notifications = notifications
    }

    /// Sends new messages to whoever should see them: the stored members, or a room's
    /// occupants, except the connection that sent them. Returns the last message's `data`
    /// JSON as the delivery encoded it, if it did (see `Delivery.deliver`).
    @discardableResult
    func announce(_ messages: [Message], to members: [UserID], kind: ConversationKind, excluding: ConnectionToken?) -> [UInt8]? {
        var encoded: [UInt8]?
        for message in messages {
            encoded = announce(message, to: members, kind: kind, excluding: excluding)
        }
        return encoded
    }

    /// `announce` of one message (a send's: no array of one to make); returns its `data` JSON
    /// as the delivery encoded it, if it did.
    @discardableResult
    func announce(_ message: Message, to members: [UserID], kind: ConversationKind, excluding: ConnectionToken?) -> [UInt8]? {
        // Rooms are for those present: nobody is notified of a room they are not in.
        guard kind != .room, let notifications else {
            let recipients = kind == .room ? rooms.occupants(of: message.conversationId) : members
            return delivery.deliver(.messageNew(message), to: recipients, excluding: excluding)
        }
        // The delivery's pass over the members also finds who has no connection here, which
        // the push checks would otherwise look up again, member by member.
        let fanOut = delivery.fanOut(.messageNew(message), to: members, excluding: excluding)
        notifications.stored(message, for: members, unconnectedHere: fanOut.unconnectedHere)
        return fanOut.encoded
    }

    /// Public profiles for ids, in the order asked; unknown ids are skipped.
    static func profiles(_ ids: [UserID], reader: StoreReader) throws -> [UserProfile] {
        let users = try reader.users(ids: ids)
        let byID = Dictionary(users.map { ($0.id, $0.profile) }, uniquingKeysWith: { first, _ in first })
        return ids.compactMap { byID[$0] }
    }

    /// A page of users by id (ascending) with their profiles, within `budget` bytes.
    static func userPage(_ ids: [UserID], after: PageKey?, limit: Int, budget: Int, reader: StoreReader) throws -> UserList {
        let key = { (id: UserID) in PageKey(number: id.rawValue) }
        let page = try AnswerPage<UserProfile>.of(ids.sorted(), key: key, after: after, limit: limit, budget: budget, describe: { rows in
            try profiles(rows, reader: reader).map { ($0.id, $0) }
        }, size: EncodedSizeBound.profile)
        return UserList(users: page.items, nextCursor: page.nextCursor)
    }

    /// The page size a list request gets: what it asked for within `maxListPage`.
    func listLimit(_ asked: Int?) -> Int {
        min(max(asked ?? rules.maxListPage, 1), rules.maxListPage)
    }

    /// A user's public profile, or `not_found`.
    static func profile(_ id: UserID, reader: StoreReader) throws -> UserProfile {
        guard let user = try reader.user(id: id) else { throw ProtocolError(.notFound, "no user with id \(id)") }
        return user.profile
    }

    /// Validates a group or room name and returns it trimmed.
    func validName(_ raw: String) throws(ProtocolError) -> String {
        let name = raw.trimmingCharacters(in: " ")
        try rules.text.validate(name, as: .name)
        return name
    }

    /// Validates an optional description.
    func validDescription(_ description: String?) throws(ProtocolError) {
        if let description { try rules.text.validate(description, as: .description) }
    }
}

extension String {
    func trimmingCharacters(in character: Character) -> String {
        var slice = Substring(self)
        while slice.first == character { slice.removeFirst() }
        while slice.last == character { slice.removeLast() }
        return String(slice)
    }
}
