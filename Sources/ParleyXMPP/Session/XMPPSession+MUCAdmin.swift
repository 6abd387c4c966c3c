import ParleyCore
import ParleyProtocol

// Multi-user chat beyond joining and talking (XEP-0045 §7.5–§10, XEP-0249): private messages,
// the subject, invitations, registering with a group's room, moderation and configuration.
// Each maps onto the service that holds the rule: a private message is a 1:1 message (friends
// only), the subject is the description (`GroupService.update`/`RoomService.update`, any
// member), registering is `group.join`, a kick or ban is `group.remove` (the owner only),
// granting ownership is `group.transfer`, the configuration form is the name, description and
// avatar (`update`). Parley rooms have no owner, so nothing in them is moderated.
extension XMPPSession {
    /// The group chat a room JID names: a group by its id (joined or not), a Parley room if
    /// this session is in it.
    private func groupChat(_ jid: JID) throws -> (ConversationID, ConversationKind) {
        if let group = Self.groupID(jid.local) { return (group, .group) }
        guard let (conversation, joined) = joinedRoom(jid) else {
            throw StanzaError(type: "cancel", condition: "not-acceptable", "join the room first")
        }
        return (conversation, joined.kind)
    }

    /// The user whose nickname (the local part of their address) is `nick`.
    private func occupant(_ nick: String) async throws -> UserID {
        guard let jid = JID("\(nick)@\(domain)") else { throw StanzaError.itemNotFound("no occupant '\(nick)'") }
        do throws(ProtocolError) {
            return try await services.directory.user(for: jid)
        } catch {
            throw StanzaError.itemNotFound("no occupant '\(nick)'")
        }
    }

    // MARK: Private messages (XEP-0045 §7.5)

    /// A message to `room/nick` is a message to that user's 1:1 conversation with this one:
    /// Parley has no private channel inside a room, and 1:1 conversations are between friends,
    /// so someone not a friend gets `forbidden`. The recipient sees it from the sender's own
    /// address, with the rest of their chat.
    func handlePrivateMessage(_ message: XMLElement, to: JID, me: (user: UserID, bare: JID, full: JID)) async {
        do {
            let recipient = try await occupant(to.resource ?? "")
            guard recipient != me.user else { throw StanzaError.badRequest("that is you") }
            try await sendDirect(message, to: recipient, me: me)
        } catch {
            var reply = StanzaError.from(error)
            if let core = error as? ProtocolError, core.code == .notFriends {
                reply.text = "private messages are 1:1 messages, which Parley allows between friends only"
            }
            send(reply.reply(to: message, from: conferenceDomain))
        }
    }

    // MARK: Subject (XEP-0045 §8.1)

    /// An occupant's `<subject>` is the description of the group or room (any member may
    /// change it); an empty one removes the description, so the name shows again. Everyone
    /// hears of it through the `info_changed` notice (`announceSubject`).
    func changeSubject(_ message: XMLElement, to subject: String, conversation: ConversationID, kind: ConversationKind,
                       me: (user: UserID, bare: JID, full: JID)) async {
        let update = GroupUpdate(conversationId: conversation, description: subject.isEmpty ? .clear : .set(subject))
        do {
            if kind == .group {
                _ = try await services.groups.update(by: me.user, update)
            } else {
                _ = try await services.rooms.update(by: me.user, update)
            }
        } catch {
            send(StanzaError.from(error).reply(to: message, from: conferenceDomain))
        }
    }

    /// An `info_changed` notice of a joined group chat as its new subject, from the occupant
    /// who changed it. The notice names the fields, not their values, so the subject is read.
    func announceSubject(_ message: Message) {
        guard let me, let system = message.system, system.type == .infoChanged,
              let fields = system.fields, fields.contains("description") || fields.contains("name"),
              let joined = state.joined[message.conversationId] else { return }
        let nick = system.actor.map { actor in
            actor == me.user ? joined.nick : (state.localParts[actor]) ?? "~\(actor.rawValue)"
        }
        let reference = ConversationReference(conversationId: message.conversationId)
        let services = self.services
        Task {
            let subject: String
            if joined.kind == .group {
                guard let info = try? await services.groups.info(for: me.user, reference) else { return }
                subject = Self.subject(name: info.name, description: info.description)
            } else {
                guard let info = try? await services.rooms.info(for: me.user, reference) else { return }
                subject = Self.subject(name: info.name, description: info.description)
            }
            self.send(self.subjectMessage(subject, room: joined.jid, by: nick, to: me.full))
        }
    }

    // MARK: Invitations (XEP-0045 §7.8.2, XEP-0249)

    /// A mediated invitation: the room passes it to the invitee's XMPP sessions. It only tells
    /// them: in Parley, joining a group is the joiner's own act (which anyone may do), so the
    /// invitee joins by registering with the room (`group.join`), and a Parley room is open.
    func handleMediatedInvitation(_ message: XMLElement, _ invitation: XMLElement, room: JoinedRoom,
                                  me: (user: UserID, bare: JID, full: JID)) async {
        do {
            guard let invitee = invitation["to"].flatMap(JID.init) else { throw StanzaError.badRequest("an invitation names the invitee (to)") }
            let user = try await services.directory.user(for: invitee)
            try await checkInvitable(user, me: me.user)
            let reason = invitation.child("reason")?.text
            let invite = XMLElement("x", namespace: Namespace.mucUser, [:], children: [
                XMLElement("invite", namespace: Namespace.mucUser, ["from": me.bare.description], children: reason.map {
                    [XMLElement("reason", namespace: Namespace.mucUser, [:], text: $0)]
                } ?? []),
            ])
            let body = XMLElement("body", [:], text: "\(me.bare) invites you to \(room.jid)" + (reason.map { ": \($0)" } ?? ""))
            forward(ForwardedStanza(type: nil, id: message["id"], from: room.jid.description,
                                    children: invite.serialized() + body.serialized()), to: user)
        } catch {
            send(StanzaError.from(error).reply(to: message, from: conferenceDomain))
        }
    }

    /// A direct invitation (XEP-0249) to a user: passed on as sent, if the inviter is in the
    /// room they invite to. Its body, if any, is not a chat message and is not stored.
    func forwardDirectInvitation(_ message: XMLElement, _ invitation: XMLElement, to recipient: UserID,
                                 me: (user: UserID, bare: JID, full: JID)) async throws {
        guard let room = invitation["jid"].flatMap(JID.init), room.domain == conferenceDomain, joinedRoom(room) != nil else {
            throw StanzaError(type: "modify", condition: "not-acceptable", "invite to a room you are in (its jid)")
        }
        try await checkInvitable(recipient, me: me.user)
        forward(ForwardedStanza(type: message["type"] ?? "normal", id: message["id"], from: me.full.description,
                                children: message.elements.map { $0.serialized() }.joined()), to: recipient)
    }

    /// Whether an invitation may reach `user`: not the inviter, and no block between the two.
    private func checkInvitable(_ user: UserID, me: UserID) async throws {
        guard user != me else { throw StanzaError.badRequest("you cannot invite yourself") }
        try await services.social.checkReachable(user, from: me)
    }

    // MARK: Queries to a room: registration, moderation, configuration

    /// `iq` to a room JID; nil when it is not one of these.
    func roomQuery(type: String, _ query: XMLElement, room: JID, me: (user: UserID, bare: JID, full: JID)) async throws -> XMLElement? {
        let (conversation, kind) = try groupChat(room)
        switch (query.namespace, type) {
        case (Namespace.register, _):
            guard kind == .group else { throw StanzaError.serviceUnavailable("a Parley room is open: just join it") }
            return try await register(type: type, query, group: conversation, me: me.user)
        case (Namespace.mucAdmin, _):
            guard kind == .group else {
                throw StanzaError(type: "cancel", condition: "not-allowed", "a Parley room has no owner or moderators")
            }
            return try await administer(type: type, query, group: conversation, me: me.user)
        case (Namespace.mucOwner, "get"):
            return XMLElement("query", namespace: Namespace.mucOwner, [:], children: [
                try await configurationForm(conversation, kind: kind, me: me.user),
            ])
        case (Namespace.mucOwner, _):
            try await configure(query, conversation, kind: kind, me: me.user)
            return nil
        case (Namespace.mam, "set") where query.name == "query":
            return try await ArchiveHandler.archive(query, me: me, room: room, context: self)
        default:
            throw StanzaError.serviceUnavailable("<\(query.name) xmlns='\(query.namespace)'> is not supported by a room")
        }
    }

    /// Registering with a group's room (XEP-0045 §7.10) is joining the group; `<remove/>` is
    /// leaving it. A get tells whether the user is a member.
    private func register(type: String, _ query: XMLElement, group: ConversationID, me: UserID) async throws -> XMLElement? {
        let reference = ConversationReference(conversationId: group)
        if type == "get" {
            var answer = XMLElement("query", namespace: Namespace.register)
            do throws(ProtocolError) {
                _ = try await services.groups.info(for: me, reference)
                answer.append(XMLElement("registered", namespace: Namespace.register))
            } catch {
                guard error.code == .notMember else { throw error }
                answer.append(XMLElement("instructions", namespace: Namespace.register, [:],
                                         text: "Register to join the group; your nickname is your username."))
            }
            return answer
        }
        if query.child("remove", namespace: Namespace.register) != nil {
            try await services.groups.leave(by: me, reference)
        } else {
            _ = try await services.groups.join(by: me, reference)
        }
        return nil
    }

    /// muc#admin (XEP-0045 §9, §10.3–§10.5) on a group: items naming a member by `nick` or
    /// `jid`. A role of `none` (kick) or an affiliation of `outcast` (ban) or `none` removes
    /// the member (`group.remove`: the owner only, `forbidden` for others; Parley keeps no ban
    /// list, so a removed member may join again); `owner` hands the group over. A get lists
    /// the owner or the members (affiliation), moderators or participants (role).
    private func administer(type: String, _ query: XMLElement, group: ConversationID, me: UserID) async throws -> XMLElement? {
        let items = query.elements.filter { $0.name == "item" }
        guard !items.isEmpty else { throw StanzaError.badRequest("name at least one item") }
        if type == "get" {
            let members = try await allMembers(of: group, me: me)
            var answer = XMLElement("query", namespace: Namespace.mucAdmin)
            for item in items {
                let wanted: Affiliation?
                switch (item["affiliation"], item["role"]) {
                case ("owner", _), (_, "moderator"): wanted = .owner
                case ("member", _), (_, "participant"): wanted = .member
                case ("admin", _), ("outcast", _), (_, "visitor"): wanted = nil
                default: throw StanzaError.badRequest("ask for an affiliation (owner, admin, member, outcast) or a role")
                }
                for (profile, affiliation) in members where affiliation == wanted {
                    let local = XMPPDirectory.localPart(of: profile)
                    answer.append(XMLElement("item", namespace: Namespace.mucAdmin, [
                        "affiliation": affiliation.rawValue, "role": affiliation.role, "jid": "\(local)@\(domain)", "nick": local,
                    ]))
                }
            }
            return answer
        }
        for item in items {
            let user: UserID
            if let nick = item["nick"] {
                user = try await occupant(nick)
            } else if let jid = item["jid"].flatMap(JID.init) {
                user = try await services.directory.user(for: jid)
            } else {
                throw StanzaError.badRequest("an item names a member by nick or jid")
            }
            let reference = MemberReference(conversationId: group, userId: user)
            switch (item["affiliation"], item["role"]) {
            case (_, "none"), ("outcast", _), ("none", _):
                try await services.groups.remove(by: me, reference)
            case ("owner", _):
                _ = try await services.groups.transfer(by: me, reference)
            case ("member", _), (_, "participant"), (_, "moderator"), ("admin", _):
                throw StanzaError(type: "cancel", condition: "not-allowed",
                                  "in Parley, people join a group themselves (invite them) and the owner is the only moderator")
            default:
                throw StanzaError.badRequest("an item sets a role or an affiliation")
            }
        }
        return nil
    }

    /// Every member of a group with their affiliation, page by page.
    private func allMembers(of group: ConversationID, me: UserID) async throws -> [(UserProfile, Affiliation)] {
        var members: [(UserProfile, Affiliation)] = []
        var cursor: String?
        repeat {
            let page = try await services.groups.members(for: me, GroupMembersParameters(conversationId: group, cursor: cursor))
            members += page.members.map { ($0.user, $0.role == "owner" ? .owner : .member) }
            cursor = page.nextCursor
        } while cursor != nil
        return members
    }

    // MARK: Configuration (XEP-0045 §10.2)

    static let roomName = "muc#roomconfig_roomname"
    static let roomDescription = "muc#roomconfig_roomdesc"
    /// Parley's avatar, which the standard form has no field for: a link to the picture.
    static let roomAvatar = "parley#roomconfig_avatar"
    static let persistent = "muc#roomconfig_persistentroom"
    static let membersOnly = "muc#roomconfig_membersonly"

    /// The form: name, description and avatar, which can be changed, and whether the room is
    /// persistent and members-only, which it is or is not by being a group or a room.
    private func configurationForm(_ conversation: ConversationID, kind: ConversationKind, me: UserID) async throws -> XMLElement {
        let reference = ConversationReference(conversationId: conversation)
        let (name, description, avatar): (String, String?, String?)
        if kind == .group {
            let info = try await services.groups.info(for: me, reference)
            (name, description, avatar) = (info.name, info.description, info.avatar)
        } else {
            let info = try await services.rooms.info(for: me, reference)
            (name, description, avatar) = (info.name, info.description, info.avatar)
        }
        let group = kind == .group ? "1" : "0"
        let form = DataForm(type: "form", fields: [
            ("FORM_TYPE", [Namespace.mucRoomConfig]),
            (Self.roomName, [name]),
            (Self.roomDescription, [description ?? ""]),
            (Self.roomAvatar, [avatar.map(services.absoluteURL) ?? ""]),
            (Self.persistent, [group]),
            (Self.membersOnly, [group]),
        ])
        return form.element(kinds: ["FORM_TYPE": "hidden", Self.roomName: "text-single", Self.roomDescription: "text-single",
                                    Self.roomAvatar: "text-single", Self.persistent: "boolean", Self.membersOnly: "boolean"],
                            labels: [Self.roomName: "Name", Self.roomDescription: "Description (the subject)", Self.roomAvatar: "Avatar link",
                                     Self.persistent: "Persistent (a group; fixed)", Self.membersOnly: "Members only (a group; fixed)"])
    }

    /// A submitted form: name, description and avatar become one `update` (any member of a
    /// group, anyone in a room, as natively). Persistence and membership are fixed by what
    /// the conversation is: a different value is `not-acceptable`. Other fields are ignored.
    /// A cancelled form, or an empty one (an "instant room"), changes nothing.
    private func configure(_ query: XMLElement, _ conversation: ConversationID, kind: ConversationKind, me: UserID) async throws {
        if query.child("destroy", namespace: Namespace.mucOwner) != nil {
            throw StanzaError(type: "cancel", condition: "not-allowed", "groups and rooms are not destroyed in Parley; members leave")
        }
        guard let form = DataForm(in: query) else { throw StanzaError.badRequest("submit the configuration form") }
        guard form.type == "submit" else { return }
        let fixed = kind == .group
        for field in [Self.persistent, Self.membersOnly] {
            if let value = form[field], Self.boolean(value) != fixed {
                throw StanzaError(type: "modify", condition: "not-acceptable",
                                  "\(field) is \(fixed ? "on for a group" : "off for a Parley room") and cannot change")
            }
        }
        var update = GroupUpdate(conversationId: conversation)
        if let name = form[Self.roomName] { update.name = .set(name) }
        if let description = form[Self.roomDescription]?.trimmingWhitespace {
            update.description = description.isEmpty ? .clear : .set(description)
        }
        if let avatar = form[Self.roomAvatar]?.trimmingWhitespace {
            update.avatar = avatar.isEmpty ? .clear : .set(services.mediaPath(avatar))
        }
        if kind == .group {
            _ = try await services.groups.update(by: me, update)
        } else {
            _ = try await services.rooms.update(by: me, update)
        }
    }

    /// A data form boolean (XEP-0004: `1`/`true`).
    private static func boolean(_ value: String) -> Bool {
        value == "1" || value == "true"
    }
}
