import ParleyCore
import ParleyProtocol

/// Multi-user chat (XEP-0045) on conference.<domain>: joining and leaving by presence, and
/// talking by groupchat message. A Parley group is a persistent, members-only room
/// `group-<id>@conference.<domain>`; a Parley room is a temporary, open room joined by its
/// name, `<name>@conference.<domain>` (joining a name that does not exist creates the room).
/// Nicknames are the members' addresses' local parts (usernames), which the service assigns
/// whatever nickname a client asks for. Membership, posting and history are the core's: a
/// room presence is `room.enter`/`room.leave` or a group membership check, a groupchat
/// message is `message.send`. Private messages, subjects and invitations are
/// `MUCAdminHandler`'s; the room `iq`s are `ConferenceHandler`'s.
struct MUCHandler: Sendable {
    // MARK: Presence: joining and leaving

    /// A presence to `room` (a JID on the conference service).
    func handlePresence(_ presence: XMLElement, room: JID, me: XMPPIdentity, context: isolated some XMPPHandlerContext) async {
        let services = context.services
        let conference = Self.domain(of: services)
        let type = presence["type"] ?? "available"
        guard room.local != nil else {
            context.send(StanzaError(type: "modify", condition: "jid-malformed", "a room JID has a name").reply(to: presence, from: conference))
            return
        }
        if type == "unavailable" {
            guard let (conversation, joined) = context.joinedRoom(room) else { return }
            context.setJoined(nil, for: conversation)
            if joined.kind == .room {
                try? await services.rooms.leave(by: me.user, ConversationReference(conversationId: conversation))
            }
            context.send(XMLElement("presence", ["type": "unavailable", "from": "\(joined.jid)/\(joined.nick)", "to": me.full.description], children: [
                Self.mucUser(joined.kind == .group ? .member : .none, role: "none", statuses: [110]),
            ]))
            return
        }
        guard type == "available", context.joinedRoom(room) == nil else { return }
        let nick = context.nick(of: me.user)
        do {
            let entry = try await enter(room, me: me.user, services: services)
            let roomJID = room.bare
            for (profile, _) in entry.occupants { context.remember(profile) }
            let joined = JoinedRoom(jid: roomJID, nick: nick, kind: entry.kind)
            context.setJoined(joined, for: entry.conversation)
            var mine = Affiliation.none
            for (profile, affiliation) in entry.occupants {
                guard profile.id != me.user else {
                    mine = affiliation
                    continue
                }
                context.send(XMLElement("presence", ["from": "\(roomJID)/\(XMPPDirectory.localPart(of: profile))", "to": me.full.description], children: [
                    Self.mucUser(affiliation, statuses: []),
                ]))
            }
            let requested = room.resource ?? nick
            // The join that created a room (XEP-0045 §10.1.1): 201, and its creator shown as
            // its owner (as on every later entry: the creator and admins moderate).
            if entry.created { mine = .owner }
            context.send(XMLElement("presence", ["from": "\(roomJID)/\(nick)", "to": me.full.description], children: [
                Self.mucUser(mine, statuses: (requested == nick ? [110] : [110, 210]) + (entry.created ? [201] : [])),
            ]))
            for message in entry.history {
                guard let sender = message.sender else { continue }
                let senderNick = sender == me.user ? nick : context.nick(of: sender)
                if let stanza = Self.groupStanza(message, in: joined, senderNick: senderNick, to: me.full, services: services, delayed: true) {
                    context.send(stanza)
                }
            }
            context.send(Self.subjectMessage(entry.subject, room: roomJID, by: nil, to: me.full))
        } catch {
            var reply = StanzaError.from(error)
            if let core = error as? ProtocolError, core.code == .notMember {
                reply = StanzaError(type: "auth", condition: "registration-required",
                                    "members only: join the group first (register with the room, XEP-0045 §7.10, or group.join)")
            }
            context.send(XMLElement("presence", ["type": "error", "from": presence["to"], "to": me.full.description], children: [
                XMLElement("x", namespace: Namespace.muc), reply.element,
            ]))
        }
    }

    /// What entering a group chat shows: its occupants with their affiliations, recent
    /// history and the subject.
    private struct Entry {
        var conversation: ConversationID
        var kind: ConversationKind
        var subject: String
        var occupants: [(UserProfile, Affiliation)]
        var history: [Message]
        /// Whether joining created it (a Parley room of a new name).
        var created = false
    }

    /// Enters a group (checking membership) or a room (entering it, creating it if new).
    private func enter(_ room: JID, me: UserID, services: XMPPServices) async throws -> Entry {
        if let group = ConferenceHandler.groupID(room.local) {
            // Reading the history is the membership check (members only).
            let history = try await services.conversations.history(for: me, HistoryParameters(conversationId: group, limit: 20))
            let members = try await services.groups.members(for: me, GroupMembersParameters(conversationId: group, limit: 200))
            let info = try await services.groups.info(for: me, ConversationReference(conversationId: group))
            return Entry(conversation: group, kind: .group, subject: Self.subject(name: info.name, description: info.description),
                         occupants: members.members.map { ($0.user, Affiliation(rawValue: $0.role) ?? .member) }, history: history.messages)
        }
        let name = room.local ?? ""
        let entry: RoomEntry
        var created = false
        do throws(ProtocolError) {
            entry = try await services.rooms.enter(by: me, NameReference(name: name))
        } catch {
            guard error.code == .notFound else { throw error }
            entry = try await services.rooms.create(by: me, CreateParameters(name: name))
            created = true
        }
        // Every page: each occupant becomes a presence stanza of its own, so no one answer grows.
        let rooms = services.rooms
        let occupants = try await AnswerPages.collect { cursor throws(ProtocolError) in
            let page = try await rooms.occupants(for: me, OccupantsParameters(conversationId: entry.room.id, cursor: cursor))
            return (page.users, page.nextCursor)
        }
        // Its creator and the admins they appointed show as `owner` and `admin`, as in a group.
        let standing = try await rooms.standing(for: me, ConversationReference(conversationId: entry.room.id))
        let admins = Set(standing.admins.map(\.id))
        let affiliation = { (profile: UserProfile) -> Affiliation in
            profile.id == standing.creator?.id ? .owner : admins.contains(profile.id) ? .admin : .none
        }
        return Entry(conversation: entry.room.id, kind: .room, subject: Self.subject(name: entry.room.name, description: entry.room.description),
                     occupants: occupants.map { ($0, affiliation($0)) }, history: entry.messages, created: created)
    }

    // MARK: Messages

    /// A `groupchat` message, or any message to a JID of the conference service: a private
    /// message, an invitation or a subject (`MUCAdminHandler`), else a body posted to the room.
    func handleMessage(_ message: XMLElement, me: XMPPIdentity, context: isolated some XMPPHandlerContext) async {
        let services = context.services
        let conference = Self.domain(of: services)
        guard let to = message["to"].flatMap(JID.init), let (conversation, joined) = context.joinedRoom(to) else {
            context.send(StanzaError(type: "modify", condition: "not-acceptable", "join the room first").reply(to: message, from: conference))
            return
        }
        let admin = context.handlers.mucAdmin
        if to.resource != nil {
            await admin.handlePrivateMessage(message, to: to, me: me, context: context)
            return
        }
        if let invitation = message.child("x", namespace: Namespace.mucUser)?.child("invite", namespace: Namespace.mucUser) {
            await admin.handleMediatedInvitation(message, invitation, room: joined, me: me, conversation: conversation, context: context)
            return
        }
        if let subject = message.child("subject") {
            await admin.changeSubject(message, to: subject.text.trimmingWhitespace, conversation: conversation, kind: joined.kind, me: me,
                                      context: context)
            return
        }
        do {
            // A correction, retraction or reaction in the room is Parley's edit, recall or
            // reaction (the members hear `message.updated`, Jabber occupants the same stanzas).
            if try await context.handlers.messageActions.perform(message, in: conversation, others: [], me: me, context: context) { return }
        } catch {
            context.send(StanzaError.from(error).reply(to: message, from: conference))
            return
        }
        guard let body = message.child("body")?.text, !body.allSatisfy(\.isWhitespace) else { return }
        do {
            let mentioned = joined.kind == .group ? await MUCMentions.mentioned(in: message, body: body, me: me, services: services) : []
            let stored = try await context.sendBody(of: message, body, in: conversation, me: me, mentions: mentioned)
            // A room reflects a message to its sender (XEP-0045 §7.4); the core leaves the
            // sending connection out of the event, so the reflection is made here.
            if let reflection = Self.groupStanza(stored, in: joined, senderNick: joined.nick, to: me.full, services: services, delayed: false) {
                context.send(reflection)
            }
        } catch {
            context.send(StanzaError.from(error).reply(to: message, from: conference))
        }
    }

    // MARK: Rendering (shared with the session's events)

    /// The multi-user chat service's domain.
    static func domain(of services: XMPPServices) -> String {
        "conference." + services.directory.domain
    }

    /// A stored message of a joined group chat as a groupchat stanza from `senderNick`, or nil
    /// for a system notice.
    static func groupStanza(_ message: Message, in room: JoinedRoom, senderNick: String, to: JID, services: XMPPServices,
                            delayed: Bool) -> XMLElement? {
        guard message.kind != .system,
              var stanza = services.plainStanza(message, from: JID(local: room.jid.local, domain: room.jid.domain, resource: senderNick), to: to) else {
            return nil
        }
        stanza["type"] = "groupchat"
        if let sender = message.sender, let originID = services.resources.origin(of: sender, clientID: message.clientId)?.originID {
            stanza.append(XMLElement("origin-id", namespace: Namespace.stanzaID, ["id": originID]))
        }
        stanza.append(XMLElement("stanza-id", namespace: Namespace.stanzaID, ["id": XMPPServices.archiveID(message), "by": room.jid.description]))
        if delayed {
            stanza.append(XMLElement("delay", namespace: Namespace.delay, ["from": room.jid.description,
                                                                          "stamp": Timestamp.iso8601(milliseconds: message.createdAt)]))
        }
        return stanza
    }

    /// A group chat's subject: its description, the nearest thing Parley has to a topic, or
    /// its name when it has none.
    static func subject(name: String, description: String?) -> String {
        description.flatMap { $0.isEmpty ? nil : $0 } ?? name
    }

    /// The subject as a groupchat message (XEP-0045 §8.1), from the occupant who set it or
    /// from the room itself.
    static func subjectMessage(_ subject: String, room: JID, by nick: String?, to: JID) -> XMLElement {
        XMLElement("message", ["type": "groupchat", "from": nick.map { "\(room)/\($0)" } ?? room.description, "to": to.description],
                   children: [XMLElement("subject", [:], text: subject)])
    }

    /// A member's standing in a group chat: a group's owner owns its room (and moderates it),
    /// members are members; in a Parley room, everyone is an equal participant.
    /// XEP-0045 §5.2: a group's owner, admins and members, and the banned (outcasts).
    enum Affiliation: String {
        case owner, admin, member, outcast, none

        /// The role that goes with it: the owner and admins moderate.
        var role: String {
            switch self {
            case .owner, .admin: "moderator"
            case .member, .none: "participant"
            case .outcast: "none"
            }
        }
    }

    /// `<x xmlns='muc#user'>` with an occupant's item; `role` nil: the affiliation's role
    /// (`none` for someone leaving).
    static func mucUser(_ affiliation: Affiliation, role: String? = nil, statuses: [Int]) -> XMLElement {
        XMLElement("x", namespace: Namespace.mucUser, [:], children: [
            XMLElement("item", namespace: Namespace.mucUser, ["affiliation": affiliation.rawValue, "role": role ?? affiliation.role]),
        ] + statuses.map { XMLElement("status", namespace: Namespace.mucUser, ["code": String($0)]) })
    }
}
