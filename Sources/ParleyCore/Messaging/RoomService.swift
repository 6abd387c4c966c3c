public import ParleyProtocol
import ParleySync

/// Rooms: entered and left; only occupants receive messages; a newcomer sees recent history;
/// a room lives while someone is in it, and its name stays taken for good.
public final class RoomService: Sendable {
    let context: MessagingContext
    /// Occupants the last sweep found connected nowhere.
    private let suspects = PThreadMutex<Set<UserID>>([])

    public init(context: MessagingContext) {
        self.context = context
    }

    /// Creates a room and enters it.
    public func create(by user: UserID, _ parameters: CreateParameters) async throws(ProtocolError) -> RoomEntry {
        let name = try context.validName(parameters.name)
        try context.validDescription(parameters.description)
        if let avatar = parameters.avatar { try AccountValidator(rules: AccountRules()).validateAvatar(avatar) }
        let now = context.clock()
        let room = try await context.gateway.write { writer in
            if try writer.conversation(kind: .room, name: name) != nil {
                throw ProtocolError(.nameTaken, "a room named '\(name)' exists", field: "name")
            }
            try MediaReference.mark(avatar: parameters.avatar, at: now, writer: writer)
            return try writer.insertConversation(NewConversation(kind: .room, name: name, avatar: parameters.avatar,
                                                                 description: parameters.description, ownerID: user, createdAt: now))
        }
        return try await enter(user, room: room.id, notice: .roomCreated)
    }

    /// Enters a room by name; entering again returns the same view without a new notice.
    public func enter(by user: UserID, _ parameters: NameReference) async throws(ProtocolError) -> RoomEntry {
        let name = parameters.name.trimmingCharacters(in: " ")
        guard let room = try await context.gateway.read({ reader in try reader.conversation(kind: .room, name: name) }) else {
            throw ProtocolError(.notFound, "no room named '\(parameters.name)'")
        }
        return try await enter(user, room: room.id, notice: .roomEntered)
    }

    private func enter(_ user: UserID, room id: ConversationID, notice: SystemNoticeType) async throws(ProtocolError) -> RoomEntry {
        let rooms = context.rooms
        // Rooms are open to anyone not banned.
        if !rooms.contains(id, user) {
            try await context.gateway.read { reader in try GroupService.checkNotBanned(user, from: id, reader: reader) }
        }
        let entered = rooms.enter(id, user)
        if entered {
            let now = context.clock()
            let name = notice == .roomCreated ? try await context.gateway.read({ reader in try reader.conversation(id: id)?.name }) : nil
            let message = try await context.gateway.write { writer in
                try writer.appendMessage(NewMessage(conversationID: id, sender: nil, clientID: nil, kind: .system,
                                                    system: SystemNotice(type: notice, actor: user, name: name), createdAt: now))
            }
            context.announce([message], to: [], kind: .room, excluding: nil)
        }
        let recent = context.rules.roomRecentMessages
        let budget = context.rules.maxAnswerBytes
        return try await context.gateway.read { reader in
            guard let room = try reader.conversation(id: id), let name = room.name else { throw ProtocolError(.notFound, "no such room") }
            var used = 0
            return RoomEntry(room: Self.info(room, name: name, occupants: rooms.count(of: id)),
                             messages: Array(ConversationService.newestFitting(try reader.messages(in: id, before: nil, limit: recent),
                                                                               budget: budget, used: &used)))
        }
    }

    /// Leaves a room.
    public func leave(by user: UserID, _ parameters: ConversationReference) async throws(ProtocolError) {
        guard context.rooms.contains(parameters.conversationId, user) else {
            throw ProtocolError(.notMember, "you are not in this room")
        }
        try await leave(user, room: parameters.conversationId)
    }

    /// Leaves every room; called when the user's last connection drops.
    public func leaveAll(_ user: UserID) async {
        for room in context.rooms.rooms(of: user) {
            try? await leave(user, room: room)
        }
    }

    /// A cluster server stopped or stopped answering: what it held goes. The one server that
    /// acts for the cluster keeps (holds itself) the entries of users still connected to
    /// another server, and writes the leave notices of the others, so each is written once.
    public func serverLost(_ node: String, acts: Bool) async {
        let orphaned = context.rooms.forget(node)
        guard acts else { return }
        for (room, user) in orphaned {
            if context.delivery.isOnline(user) {
                context.rooms.adopt(room, user)
            } else {
                // Every server drops a lost server's entries when it gives that server up, but
                // not at the same instant: the `left` makes the others agree before the notice
                // reaches their occupants.
                context.rooms.announceLeft(room, user)
                try? await noticeLeft(user, room: room)
            }
        }
    }

    /// Occupants connected to no server (their last connections closed on two servers at once,
    /// each seeing the other still open, or a beat crossed their leave) leave. Run by the
    /// server that acts for the cluster, at each heartbeat; a user must be found absent by two
    /// sweeps in a row, so news still on its way (a node's first beat) cannot evict anyone.
    public func sweep() async {
        let delivery = context.delivery
        let absent = Set(context.rooms.everyOccupant.filter { !delivery.isOnline($0) })
        let confirmed = suspects.withLock { suspects in
            let confirmed = absent.intersection(suspects)
            suspects = absent.subtracting(confirmed)
            return confirmed
        }
        for user in confirmed.sorted() where !delivery.isOnline(user) {
            await leaveAll(user)
        }
    }

    private func leave(_ user: UserID, room: ConversationID) async throws(ProtocolError) {
        guard context.rooms.leave(room, user) else { return }
        try await noticeLeft(user, room: room)
    }

    /// Writes the `room_left` notice and tells the remaining occupants and the leaver.
    private func noticeLeft(_ user: UserID, room: ConversationID) async throws(ProtocolError) {
        let now = context.clock()
        let message = try await context.gateway.write { writer in
            try writer.appendMessage(NewMessage(conversationID: room, sender: nil, clientID: nil, kind: .system,
                                                system: SystemNotice(type: .roomLeft, actor: user), createdAt: now))
        }
        // The leaver's other devices hear of it too.
        context.delivery.deliver(.messageNew(message), to: context.rooms.occupants(of: room) + [user], excluding: nil)
    }

    /// Changes the room's name, avatar or description; anyone in the room may, and everyone
    /// in it sees an `info_changed` system message.
    public func update(by user: UserID, _ update: GroupUpdate) async throws(ProtocolError) -> RoomInfo {
        let edit = try ConversationInfoEdit(update, context: context)
        guard context.rooms.contains(update.conversationId, user) else {
            throw ProtocolError(.notMember, "enter the room first")
        }
        let now = context.clock()
        let rooms = context.rooms
        let (room, message) = try await context.gateway.write { writer in
            guard var room = try writer.conversation(id: update.conversationId), room.kind == .room else {
                throw ProtocolError(.notFound, "no such room")
            }
            let message = try edit.apply(to: &room, by: user, now: now, writer: writer)
            return (room, message)
        }
        if let message { context.announce([message], to: [], kind: .room, excluding: nil) }
        return Self.info(room, name: room.name ?? "", occupants: rooms.count(of: room.id))
    }

    /// The room's information, for occupants.
    /// A room's public information, by name or id, for anyone: rooms are open, so what a
    /// link or a search shows before entering is no secret.
    public func find(_ lookup: RoomLookup) async throws(ProtocolError) -> RoomInfo {
        let rooms = context.rooms
        let name: String?
        if let raw = lookup.name {
            // A name longer than any room's is simply not found, without reading the store.
            guard context.rules.text[.name].allows(raw) else { throw ProtocolError(.notFound, "no such room") }
            name = raw
        } else {
            name = nil
        }
        guard name != nil || lookup.conversationId != nil else {
            throw ProtocolError(.missingField, "give a room's name or its conversationId", field: "name")
        }
        return try await context.gateway.read { reader in
            let found = try name.map { try reader.conversation(kind: .room, name: $0) } ?? lookup.conversationId.flatMap { try reader.conversation(id: $0) }
            guard let room = found, room.kind == .room, let roomName = room.name else { throw ProtocolError(.notFound, "no such room") }
            return Self.info(room, name: roomName, occupants: rooms.count(of: room.id))
        }
    }

    public func info(for user: UserID, _ parameters: ConversationReference) async throws(ProtocolError) -> RoomInfo {
        guard context.rooms.contains(parameters.conversationId, user) else {
            throw ProtocolError(.notMember, "enter the room first")
        }
        let rooms = context.rooms
        return try await context.gateway.read { reader in
            guard let room = try reader.conversation(id: parameters.conversationId), room.kind == .room, let name = room.name else {
                throw ProtocolError(.notFound, "no such room")
            }
            return Self.info(room, name: name, occupants: rooms.count(of: room.id))
        }
    }

    /// Who is in the room now (for occupants).
    public func occupants(for user: UserID, _ parameters: OccupantsParameters) async throws(ProtocolError) -> UserList {
        guard context.rooms.contains(parameters.conversationId, user) else {
            throw ProtocolError(.notMember, "enter the room first")
        }
        let after = try PageKey.parse(parameters.cursor)
        let limit = context.listLimit(parameters.limit)
        let budget = context.rules.maxAnswerBytes
        let ids = context.rooms.occupants(of: parameters.conversationId)
        return try await context.gateway.read { reader in
            try MessagingContext.userPage(ids, after: after, limit: limit, budget: budget, reader: reader)
        }
    }

    /// What every room operation shows of a room: the stored record, the name it goes by and
    /// how many are in it now.
    static func info(_ room: StoredConversation, name: String, occupants: Int) -> RoomInfo {
        RoomInfo(id: room.id, name: name, avatar: room.avatar, description: room.description,
                 occupantCount: occupants, createdAt: room.createdAt, ownerId: room.ownerID)
    }
}
