import ParleyCore
import ParleyNet
import ParleyProtocol

// Multi-user chat (XEP-0045) on conference.<domain>: a Parley group is a persistent,
// members-only room `group-<id>@conference.<domain>`; a Parley room is a temporary, open room
// joined by its name, `<name>@conference.<domain>` (joining a name that does not exist
// creates the room). Nicknames are the members' addresses' local parts (usernames), which
// the service assigns whatever nickname a client asks for. Membership, posting and history
// are the core's: a room presence is `room.enter`/`room.leave` or a group membership check,
// a groupchat message is `message.send`.
extension XMPPSession {
    /// The joined room a room JID names.
    func joinedRoom(_ jid: JID) -> (ConversationID, JoinedRoom)? {
        state.joined.first { $0.value.jid == jid.bare }.map { ($0.key, $0.value) }
    }

    // MARK: Presence: joining and leaving

    func handleRoomPresence(_ presence: XMLElement, room: JID, me: (user: UserID, bare: JID, full: JID)) async {
        let type = presence["type"] ?? "available"
        guard room.local != nil else {
            send(StanzaError(type: "modify", condition: "jid-malformed", "a room JID has a name").reply(to: presence, from: conferenceDomain))
            return
        }
        if type == "unavailable" {
            guard let (conversation, joined) = joinedRoom(room) else { return }
            state.joined[conversation] = nil
            if joined.kind == .room {
                try? await services.rooms.leave(by: me.user, ConversationReference(conversationId: conversation))
            }
            send(XMLElement("presence", ["type": "unavailable", "from": "\(joined.jid)/\(joined.nick)", "to": me.full.description], children: [
                mucUser(joined.kind == .group ? .member : .none, role: "none", statuses: [110]),
            ]))
            return
        }
        guard type == "available", joinedRoom(room) == nil else { return }
        let nick = (state.localParts[me.user]) ?? "~\(me.user.rawValue)"
        do {
            let entry = try await enter(room, me: me.user)
            let roomJID = room.bare
            for (profile, _) in entry.occupants { services.directory.remember(profile) }
            state.joined[entry.conversation] = JoinedRoom(jid: roomJID, nick: nick, kind: entry.kind)
            for (profile, _) in entry.occupants { state.localParts[profile.id] = XMPPDirectory.localPart(of: profile) }
            var mine = Affiliation.none
            for (profile, affiliation) in entry.occupants {
                guard profile.id != me.user else {
                    mine = affiliation
                    continue
                }
                send(XMLElement("presence", ["from": "\(roomJID)/\(XMPPDirectory.localPart(of: profile))", "to": me.full.description], children: [
                    mucUser(affiliation, statuses: []),
                ]))
            }
            let requested = room.resource ?? nick
            send(XMLElement("presence", ["from": "\(roomJID)/\(nick)", "to": me.full.description], children: [
                mucUser(mine, statuses: requested == nick ? [110] : [110, 210]),
            ]))
            for message in entry.history {
                if let stanza = groupStanza(message, delayed: true) { send(stanza) }
            }
            send(subjectMessage(entry.subject, room: roomJID, by: nil, to: me.full))
        } catch {
            var reply = StanzaError.from(error)
            if let core = error as? ProtocolError, core.code == .notMember {
                reply = StanzaError(type: "auth", condition: "registration-required",
                                    "members only: join the group first (register with the room, XEP-0045 §7.10, or group.join)")
            }
            send(XMLElement("presence", ["type": "error", "from": presence["to"], "to": me.full.description], children: [
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
    }

    /// Enters a group (checking membership) or a room (entering it, creating it if new).
    private func enter(_ room: JID, me: UserID) async throws -> Entry {
        if let group = ConferenceHandler.groupID(room.local) {
            // Reading the history is the membership check (members only).
            let history = try await services.conversations.history(for: me, HistoryParameters(conversationId: group, limit: 20))
            let members = try await services.groups.members(for: me, GroupMembersParameters(conversationId: group, limit: 200))
            let info = try await services.groups.info(for: me, ConversationReference(conversationId: group))
            return Entry(conversation: group, kind: .group, subject: Self.subject(name: info.name, description: info.description),
                         occupants: members.members.map { ($0.user, $0.role == "owner" ? .owner : .member) }, history: history.messages)
        }
        let name = room.local ?? ""
        let entry: RoomEntry
        do throws(ProtocolError) {
            entry = try await services.rooms.enter(by: me, NameReference(name: name))
        } catch {
            guard error.code == .notFound else { throw error }
            entry = try await services.rooms.create(by: me, CreateParameters(name: name))
        }
        // Every page: each occupant becomes a presence stanza of its own, so no one answer grows.
        let rooms = services.rooms
        let occupants = try await AnswerPages.collect { cursor throws(ProtocolError) in
            let page = try await rooms.occupants(for: me, OccupantsParameters(conversationId: entry.room.id, cursor: cursor))
            return (page.users, page.nextCursor)
        }
        return Entry(conversation: entry.room.id, kind: .room, subject: Self.subject(name: entry.room.name, description: entry.room.description),
                     occupants: occupants.map { ($0, .none) }, history: entry.messages)
    }

    /// A group chat's subject: its description, the nearest thing Parley has to a topic, or
    /// its name when it has none.
    static func subject(name: String, description: String?) -> String {
        description.flatMap { $0.isEmpty ? nil : $0 } ?? name
    }

    /// The subject as a groupchat message (XEP-0045 §8.1), from the occupant who set it or
    /// from the room itself.
    func subjectMessage(_ subject: String, room: JID, by nick: String?, to: JID) -> XMLElement {
        XMLElement("message", ["type": "groupchat", "from": nick.map { "\(room)/\($0)" } ?? room.description, "to": to.description],
                   children: [XMLElement("subject", [:], text: subject)])
    }

    /// A member's standing in a group chat: a group's owner owns its room (and moderates it),
    /// members are members; in a Parley room, everyone is an equal participant.
    enum Affiliation: String {
        case owner, member, none

        var role: String { self == .owner ? "moderator" : "participant" }
    }

    /// `<x xmlns='muc#user'>` with an occupant's item; `role` nil: the affiliation's role
    /// (`none` for someone leaving).
    func mucUser(_ affiliation: Affiliation, role: String? = nil, statuses: [Int]) -> XMLElement {
        XMLElement("x", namespace: Namespace.mucUser, [:], children: [
            XMLElement("item", namespace: Namespace.mucUser, ["affiliation": affiliation.rawValue, "role": role ?? affiliation.role]),
        ] + statuses.map { XMLElement("status", namespace: Namespace.mucUser, ["code": String($0)]) })
    }

    // MARK: Messages

    func handleGroupMessage(_ message: XMLElement, me: (user: UserID, bare: JID, full: JID)) async {
        guard let to = message["to"].flatMap(JID.init), let (conversation, joined) = joinedRoom(to) else {
            send(StanzaError(type: "modify", condition: "not-acceptable", "join the room first").reply(to: message, from: conferenceDomain))
            return
        }
        if to.resource != nil {
            await handlePrivateMessage(message, to: to, me: me)
            return
        }
        if let invitation = message.child("x", namespace: Namespace.mucUser)?.child("invite", namespace: Namespace.mucUser) {
            await handleMediatedInvitation(message, invitation, room: joined, me: me)
            return
        }
        if let subject = message.child("subject") {
            await changeSubject(message, to: subject.text.trimmingWhitespace, conversation: conversation, kind: joined.kind, me: me)
            return
        }
        guard let body = message.child("body")?.text, !body.allSatisfy(\.isWhitespace) else { return }
        do {
            let stored = try await sendBody(of: message, body, in: conversation, me: me.user)
            // A room reflects a message to its sender (XEP-0045 §7.4); the core leaves the
            // sending connection out of the event, so the reflection is made here.
            if let reflection = groupStanza(stored, delayed: false) { send(reflection) }
        } catch {
            send(StanzaError.from(error).reply(to: message, from: conferenceDomain))
        }
    }

    /// A stored message as a groupchat stanza, if this session has joined its conversation.
    /// The user's own messages (from other devices, or reflected) come too, as everyone in a
    /// room sees them.
    func groupStanza(_ message: Message, delayed: Bool) -> XMLElement? {
        guard let me, let joined = state.joined[message.conversationId],
              let sender = message.sender, message.kind != .system else { return nil }
        let nick = sender == me.user ? joined.nick : ((state.localParts[sender]) ?? "~\(sender.rawValue)")
        let roomJID = joined.jid
        guard var stanza = services.plainStanza(message, from: JID(local: roomJID.local, domain: roomJID.domain, resource: nick), to: me.full) else {
            return nil
        }
        stanza["type"] = "groupchat"
        stanza.append(XMLElement("stanza-id", namespace: Namespace.stanzaID, ["id": XMPPServices.archiveID(message), "by": roomJID.description]))
        if delayed {
            stanza.append(XMLElement("delay", namespace: Namespace.delay, ["from": roomJID.description,
                                                                          "stamp": Timestamp.iso8601(milliseconds: message.createdAt)]))
        }
        return stanza
    }

    /// A system notice of a joined group chat in XMPP's terms: someone entering or leaving
    /// (a room), joining, leaving or removed (a group), as occupant presence; a new owner as
    /// their new affiliation. Info changes become a subject message (`announceSubject`).
    func occupantPresence(_ message: Message) -> XMLElement? {
        guard let me, let system = message.system, let actor = system.actor,
              let joined = state.joined[message.conversationId] else { return nil }
        var user = actor
        var affiliation: Affiliation = joined.kind == .group ? .member : .none
        var leaving = false
        var statuses: [Int] = []
        switch system.type {
        case .roomEntered, .memberJoined:
            break
        case .roomLeft, .memberLeft:
            leaving = true
        case .memberRemoved:
            guard let target = system.target else { return nil }
            // XEP-0045's kick (307): the removed member is out of the room at once.
            user = target
            leaving = true
            statuses = [307]
        case .ownerChanged:
            guard let target = system.target else { return nil }
            user = target
            affiliation = .owner
        default:
            return nil
        }
        if user == me.user {
            // This session's own entry was answered when it joined, and its own leaving over
            // XMPP too (the room is no longer joined then). What is left: the user removed,
            // leaving from another device, or made owner.
            guard leaving || system.type == .ownerChanged else { return nil }
            if leaving { state.joined.removeValue(forKey: message.conversationId) }
            statuses.append(110)
        }
        let nick = user == me.user ? joined.nick : (state.localParts[user]) ?? "~\(user.rawValue)"
        return XMLElement("presence", ["type": leaving ? "unavailable" : nil, "from": "\(joined.jid)/\(nick)", "to": me.full.description],
                          children: [mucUser(leaving ? .none : affiliation, role: leaving ? "none" : nil, statuses: statuses)])
    }
}
