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
    /// The group a `group-<id>` local part names.
    private static func groupID(_ local: String?) -> ConversationID? {
        guard let local, local.hasPrefix("group-"), let raw = Int64(local.dropFirst(6)) else { return nil }
        return ConversationID(rawValue: raw)
    }

    /// The joined room a room JID names.
    private func joinedRoom(_ jid: JID) -> (ConversationID, JoinedRoom)? {
        state.withLock { state in state.joined.first { $0.value.jid == jid.bare }.map { ($0.key, $0.value) } }
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
            state.withLock { $0.joined[conversation] = nil }
            if joined.kind == .room {
                try? await services.rooms.leave(by: me.user, ConversationReference(conversationId: conversation))
            }
            send(XMLElement("presence", ["type": "unavailable", "from": "\(joined.jid)/\(joined.nick)", "to": me.full.description], children: [
                mucUser(affiliation: joined.kind == .group ? "member" : "none", role: "none", statuses: [110]),
            ]))
            return
        }
        guard type == "available", joinedRoom(room) == nil else { return }
        let nick = state.withLock { $0.localParts[me.user] } ?? "~\(me.user.rawValue)"
        do {
            let (conversation, kind, name, occupants, history) = try await enter(room, me: me.user)
            let roomJID = room.bare
            for profile in occupants { services.directory.remember(profile) }
            state.withLock { state in
                state.joined[conversation] = JoinedRoom(jid: roomJID, nick: nick, kind: kind)
                for profile in occupants { state.localParts[profile.id] = XMPPDirectory.localPart(of: profile) }
            }
            let affiliation = kind == .group ? "member" : "none"
            for profile in occupants where profile.id != me.user {
                send(XMLElement("presence", ["from": "\(roomJID)/\(XMPPDirectory.localPart(of: profile))", "to": me.full.description], children: [
                    mucUser(affiliation: affiliation, role: "participant", statuses: []),
                ]))
            }
            let requested = room.resource ?? nick
            send(XMLElement("presence", ["from": "\(roomJID)/\(nick)", "to": me.full.description], children: [
                mucUser(affiliation: affiliation, role: "participant", statuses: requested == nick ? [110] : [110, 210]),
            ]))
            for message in history {
                if let stanza = groupStanza(message, delayed: true) { send(stanza) }
            }
            send(XMLElement("message", ["type": "groupchat", "from": roomJID.description, "to": me.full.description], children: [
                XMLElement("subject", [:], text: name),
            ]))
        } catch {
            var reply = StanzaError.from(error)
            if let core = error as? ProtocolError, core.code == .notMember {
                reply = StanzaError(type: "auth", condition: "registration-required", core.message)
            }
            send(XMLElement("presence", ["type": "error", "from": presence["to"], "to": me.full.description], children: [
                XMLElement("x", namespace: Namespace.muc), reply.element,
            ]))
        }
    }

    /// Enters a group (checking membership) or a room (entering it, creating it if new).
    private func enter(_ room: JID, me: UserID) async throws -> (ConversationID, ConversationKind, String, [UserProfile], [Message]) {
        if let group = Self.groupID(room.local) {
            // Reading the history is the membership check (members only).
            let history = try await services.conversations.history(for: me, HistoryParameters(conversationId: group, limit: 20))
            let members = try await services.groups.members(for: me, GroupMembersParameters(conversationId: group, limit: 200))
            let name = try await services.conversations.list(for: me).conversations.first { $0.id == group }?.name ?? room.local ?? ""
            return (group, .group, name, members.members.map(\.user), history.messages)
        }
        let name = room.local ?? ""
        let entry: RoomEntry
        do throws(ProtocolError) {
            entry = try await services.rooms.enter(by: me, NameReference(name: name))
        } catch {
            guard error.code == .notFound else { throw error }
            entry = try await services.rooms.create(by: me, CreateParameters(name: name))
        }
        let occupants = try await services.rooms.occupants(for: me, ConversationReference(conversationId: entry.room.id))
        return (entry.room.id, .room, entry.room.name, occupants.users, entry.messages)
    }

    private func mucUser(affiliation: String, role: String, statuses: [Int]) -> XMLElement {
        XMLElement("x", namespace: Namespace.mucUser, [:], children: [
            XMLElement("item", namespace: Namespace.mucUser, ["affiliation": affiliation, "role": role]),
        ] + statuses.map { XMLElement("status", namespace: Namespace.mucUser, ["code": String($0)]) })
    }

    // MARK: Messages

    func handleGroupMessage(_ message: XMLElement, me: (user: UserID, bare: JID, full: JID)) async {
        guard let to = message["to"].flatMap(JID.init), let (conversation, _) = joinedRoom(to), to.resource == nil else {
            send(StanzaError(type: "modify", condition: "not-acceptable", "join the room first; private messages in rooms are not supported")
                .reply(to: message, from: conferenceDomain))
            return
        }
        guard let body = message.child("body")?.text, !body.allSatisfy(\.isWhitespace) else { return }
        let clientID = clientID(for: message)
        do {
            let stored = try await services.conversations.send(
                from: me.user, SendParameters(conversationId: conversation, clientId: clientID, kind: .text, text: body), connection: token)
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
        guard let me, let joined = state.withLock({ $0.joined[message.conversationId] }),
              let sender = message.sender, message.kind != .system else { return nil }
        let nick = sender == me.user ? joined.nick : (state.withLock { $0.localParts[sender] } ?? "~\(sender.rawValue)")
        let roomJID = joined.jid
        guard var stanza = plainStanza(message, from: JID(local: roomJID.local, domain: roomJID.domain, resource: nick), to: me.full) else {
            return nil
        }
        stanza["type"] = "groupchat"
        stanza.append(XMLElement("stanza-id", namespace: Namespace.stanzaID, ["id": Self.archiveID(message), "by": roomJID.description]))
        if delayed {
            stanza.append(XMLElement("delay", namespace: Namespace.delay, ["from": roomJID.description,
                                                                          "stamp": Timestamp.iso8601(milliseconds: message.createdAt)]))
        }
        return stanza
    }

    /// Someone entering or leaving a joined Parley room, as their occupant presence.
    func occupantPresence(_ message: Message) -> XMLElement? {
        guard let me, let system = message.system, let actor = system.actor, actor != me.user,
              system.type == .roomEntered || system.type == .roomLeft,
              let joined = state.withLock({ $0.joined[message.conversationId] }) else { return nil }
        let nick = state.withLock { $0.localParts[actor] } ?? "~\(actor.rawValue)"
        return XMLElement("presence", ["type": system.type == .roomLeft ? "unavailable" : nil, "from": "\(joined.jid)/\(nick)",
                                       "to": me.full.description], children: [
            mucUser(affiliation: "none", role: system.type == .roomLeft ? "none" : "participant", statuses: []),
        ])
    }

    // MARK: Service discovery on the conference service

    func conferenceQuery(type: String, _ query: XMLElement, target: JID, me: (user: UserID, bare: JID, full: JID)) async throws -> XMLElement? {
        switch (query.namespace, query.name, type) {
        case (Namespace.discoInfo, "query", "get") where target.local == nil:
            return XMLElement("query", namespace: Namespace.discoInfo, [:], children: [
                XMLElement("identity", namespace: Namespace.discoInfo, ["category": "conference", "type": "text", "name": "Groups and rooms"]),
                XMLElement("feature", namespace: Namespace.discoInfo, ["var": Namespace.muc]),
                XMLElement("feature", namespace: Namespace.discoInfo, ["var": Namespace.discoInfo]),
                XMLElement("feature", namespace: Namespace.discoInfo, ["var": Namespace.discoItems]),
            ])
        case (Namespace.discoItems, "query", "get") where target.local == nil:
            // The user's groups, and the rooms they are in.
            let list = try await services.conversations.list(for: me.user)
            var items = XMLElement("query", namespace: Namespace.discoItems)
            for summary in list.conversations where summary.kind == .group || summary.kind == .room {
                let local = summary.kind == .group ? "group-\(summary.id.rawValue)" : (summary.name ?? "").lowercased()
                guard let jid = JID("\(local)@\(conferenceDomain)") else { continue }
                items.append(XMLElement("item", namespace: Namespace.discoItems, ["jid": jid.description, "name": summary.name]))
            }
            return items
        case (Namespace.discoInfo, "query", "get"):
            let group = Self.groupID(target.local) != nil
            return XMLElement("query", namespace: Namespace.discoInfo, [:], children: [
                XMLElement("identity", namespace: Namespace.discoInfo, ["category": "conference", "type": "text", "name": target.local]),
                XMLElement("feature", namespace: Namespace.discoInfo, ["var": Namespace.muc]),
            ] + (group ? ["muc_membersonly", "muc_persistent"] : ["muc_open", "muc_temporary"]).map {
                XMLElement("feature", namespace: Namespace.discoInfo, ["var": $0])
            })
        case (Namespace.ping, "ping", "get"):
            return nil
        default:
            throw StanzaError.serviceUnavailable("<\(query.name) xmlns='\(query.namespace)'> is not supported by the conference service")
        }
    }
}
