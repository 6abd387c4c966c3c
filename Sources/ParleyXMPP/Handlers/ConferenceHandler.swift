import Foundation
import ParleyCore
import ParleyProtocol

/// Multi-user chat's `iq`s (XEP-0045), the service at `conference.<domain>` and its rooms:
/// service and room discovery, ping, and to a room, registering with a group's room
/// (`group.join`/`group.leave`), moderation (`group.remove`, `group.transfer`: the owner
/// only), the configuration form (name, description, avatar: `update`) and the room's
/// archive (`ArchiveHandler`). Joining, leaving and talking are presence and messages, the
/// session's own (its joined rooms); a Parley room is known here only once joined.
struct ConferenceHandler: XMPPHandler {
    var payloads: [XMPPPayload] { [] }
    /// The standings the session's room presence shows too.
    typealias Affiliation = MUCHandler.Affiliation

    func answer(_ request: XMPPRequest, context: isolated some XMPPHandlerContext) async throws -> XMLElement? {
        guard let target = request.target else { throw request.unsupported }
        return try await conferenceQuery(type: request.type, request.query, target: target, me: request.me, context: context)
    }

    /// The group a `group-<id>` local part names.
    static func groupID(_ local: String?) -> ConversationID? {
        guard let local, local.hasPrefix("group-"), let raw = Int64(local.dropFirst(6)) else { return nil }
        return ConversationID(rawValue: raw)
    }

    /// The group chat a room JID names: a group by its id (joined or not), a Parley room if
    /// this session is in it.
    private func groupChat(_ jid: JID, context: isolated some XMPPHandlerContext) throws -> (ConversationID, ConversationKind) {
        if let group = ConferenceHandler.groupID(jid.local) { return (group, .group) }
        guard let joined = context.joinedChat(jid) else {
            throw StanzaError(type: "cancel", condition: "not-acceptable", "join the room first")
        }
        return joined
    }

    /// The user whose nickname (the local part of their address) is `nick`.
    static func occupant(_ nick: String, directory: XMPPDirectory) async throws -> UserID {
        guard let jid = JID("\(nick)@\(directory.domain)") else { throw StanzaError.itemNotFound("no occupant '\(nick)'") }
        do throws(ProtocolError) {
            return try await directory.user(for: jid)
        } catch {
            throw StanzaError.itemNotFound("no occupant '\(nick)'")
        }
    }

    // MARK: Service discovery on the conference service

    private func conferenceQuery(type: String, _ query: XMLElement, target: JID, me: XMPPIdentity, context: isolated some XMPPHandlerContext) async throws -> XMLElement? {
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
            let list = try await context.services.conversations.list(for: me.user)
            var items = XMLElement("query", namespace: Namespace.discoItems)
            for summary in list.conversations where summary.kind == .group || summary.kind == .room {
                let local = summary.kind == .group ? "group-\(summary.id.rawValue)" : (summary.name ?? "").lowercased()
                guard let jid = JID("\(local)@\(target.domain)") else { continue }
                items.append(XMLElement("item", namespace: Namespace.discoItems, ["jid": jid.description, "name": summary.name]))
            }
            return items
        case (Namespace.discoInfo, "query", "get"):
            let group = ConferenceHandler.groupID(target.local) != nil
            return XMLElement("query", namespace: Namespace.discoInfo, [:], children: [
                XMLElement("identity", namespace: Namespace.discoInfo, ["category": "conference", "type": "text", "name": target.local]),
                XMLElement("feature", namespace: Namespace.discoInfo, ["var": Namespace.muc]),
                XMLElement("feature", namespace: Namespace.discoInfo, ["var": Namespace.mam]),
                XMLElement("feature", namespace: Namespace.discoInfo, ["var": Namespace.retraction]),
            ] + (group ? ["muc_membersonly", "muc_persistent", Namespace.moderation] : ["muc_open", "muc_temporary"]).map {
                XMLElement("feature", namespace: Namespace.discoInfo, ["var": $0])
            })
        case (Namespace.ping, "ping", "get"):
            // MUC self-ping (XEP-0410): a ping to one's own occupant JID tells whether one is
            // still in the room; anyone else's, or the room's, whether the room is there.
            if target.local != nil, let nick = target.resource, let (_, joined) = context.joinedRoom(target), joined.nick == nick {
                return nil
            }
            if target.local != nil, target.resource != nil, context.joinedRoom(target) == nil {
                throw StanzaError(type: "cancel", condition: "not-acceptable", "you are not in this room")
            }
            return nil
        case _ where target.local != nil:
            return try await roomQuery(type: type, query, room: target, me: me, context: context)
        default:
            throw StanzaError.serviceUnavailable("<\(query.name) xmlns='\(query.namespace)'> is not supported by the conference service")
        }
    }
    // MARK: Queries to a room: registration, moderation, configuration

    /// `iq` to a room JID; nil when it is not one of these.
    private func roomQuery(type: String, _ query: XMLElement, room: JID, me: XMPPIdentity, context: isolated some XMPPHandlerContext) async throws -> XMLElement? {
        let (conversation, kind) = try groupChat(room, context: context)
        switch (query.namespace, type) {
        case (Namespace.register, _):
            guard kind == .group else { throw StanzaError.serviceUnavailable("a Parley room is open: just join it") }
            return try await register(type: type, query, group: conversation, me: me.user, context: context)
        case (Namespace.mucAdmin, _) where kind == .room:
            return try await moderateRoom(type: type, query, room: conversation, me: me.user, context: context)
        case (Namespace.mucAdmin, _):
            return try await administer(type: type, query, group: conversation, me: me.user, context: context)
        case (Namespace.mucOwner, "get"):
            return XMLElement("query", namespace: Namespace.mucOwner, [:], children: [
                try await configurationForm(conversation, kind: kind, me: me.user, context: context),
            ])
        case (Namespace.mucOwner, _):
            try await configure(query, conversation, kind: kind, me: me.user, context: context)
            return nil
        case (Namespace.mam, "set") where query.name == "query":
            return try await ArchiveHandler.archive(query, me: me, room: room, context: context)
        case (Namespace.moderation, "set") where query.name == "moderate":
            try await moderate(query, in: conversation, me: me, context: context)
            return nil
        default:
            throw StanzaError.serviceUnavailable("<\(query.name) xmlns='\(query.namespace)'> is not supported by a room")
        }
    }

    /// Moderated retraction (XEP-0425): a moderator retracts an occupant's message, named by
    /// its `<stanza-id>` (the server id). It is Parley's recall by the group's owner or an
    /// admin (`ConversationAccess`'s rule: an admin not the owner's or another admin's), so
    /// native clients see the message recalled, and every joined occupant, the moderator's
    /// own streams included, gets the retraction with `<moderated>` from the room. Anyone
    /// else is `forbidden`; a Parley room has no moderators for messages.
    private func moderate(_ query: XMLElement, in conversation: ConversationID, me: XMPPIdentity,
                          context: isolated some XMPPHandlerContext) async throws {
        guard query.child("retract", namespace: Namespace.retraction) != nil else {
            throw StanzaError(type: "cancel", condition: "feature-not-implemented", "a moderation here is a retraction")
        }
        let actions = context.services.conversations.actions
        guard let id = query["id"], let message = try await actions.message(id, in: conversation, sentBy: [], for: me.user) else {
            throw StanzaError.itemNotFound("no such message in this room")
        }
        let recall = MessageActionParameters(conversationId: conversation, messageId: message.id, clientId: MessageActionHandler.actionClientID())
        let refused: Bool
        do throws(ProtocolError) {
            _ = try await actions.recall(by: me.user, recall, connection: nil)
            refused = false
        } catch {
            guard error.code == .notSender || error.code == .windowClosed else { throw error }
            refused = true
        }
        if refused { throw StanzaError(type: "auth", condition: "forbidden", "only the group's owner and admins moderate others' messages") }
    }

    /// Registering with a group's room (XEP-0045 §7.10) is joining the group; `<remove/>` is
    /// leaving it. A get tells whether the user is a member.
    private func register(type: String, _ query: XMLElement, group: ConversationID, me: UserID, context: isolated some XMPPHandlerContext) async throws -> XMLElement? {
        let reference = ConversationReference(conversationId: group)
        if type == "get" {
            var answer = XMLElement("query", namespace: Namespace.register)
            do throws(ProtocolError) {
                _ = try await context.services.groups.info(for: me, reference)
                answer.append(XMLElement("registered", namespace: Namespace.register))
            } catch {
                guard error.code == .notMember else { throw error }
                answer.append(XMLElement("instructions", namespace: Namespace.register, [:],
                                         text: "Register to join the group; your nickname is your username."))
            }
            return answer
        }
        if query.child("remove", namespace: Namespace.register) != nil {
            try await context.services.groups.leave(by: me, reference)
        } else {
            _ = try await context.services.groups.join(by: me, reference)
        }
        return nil
    }

    /// muc#admin (XEP-0045 §9, §10.3–§10.5) on a group, mapped both ways onto its roles:
    /// affiliations `owner`, `admin`, `member` are the group's roles and `outcast` its bans;
    /// the roles `moderator` (owner and admins), `participant` (members) and `visitor` (muted
    /// members). A get lists them; a set is the native operation with the same rule: `none`
    /// role kicks (`group.remove`), `outcast` bans (with the item's `<reason/>`), `none`
    /// affiliation lifts a ban or removes, `admin`/`moderator` appoints an admin (the owner
    /// only), `member` takes admin away or lifts a ban, `visitor` mutes and `participant`
    /// unmutes or takes admin away, `owner` hands the group over. Nobody becomes a member by
    /// someone else's act: they are invited (a mediated invitation) and join.
    private func administer(type: String, _ query: XMLElement, group: ConversationID, me: UserID, context: isolated some XMPPHandlerContext) async throws -> XMLElement? {
        let items = query.elements.filter { $0.name == "item" }
        guard !items.isEmpty else { throw StanzaError.badRequest("name at least one item") }
        let groups = context.services.groups
        let reference = ConversationReference(conversationId: group)
        if type == "get" {
            let members = try await allMembers(of: group, me: me, context: context)
            var answer = XMLElement("query", namespace: Namespace.mucAdmin)
            for item in items {
                switch (item["affiliation"], item["role"]) {
                case ("outcast", _):
                    for ban in try await groups.bans(for: me, reference).bans {
                        answer.append(Self.item(ban.user, affiliation: "outcast", role: "none", reason: ban.reason, context: context))
                    }
                case (let affiliation?, _) where ["owner", "admin", "member"].contains(affiliation):
                    for member in members where member.role == affiliation {
                        answer.append(Self.item(member.user, affiliation: affiliation, role: Self.role(of: member), context: context))
                    }
                case (_, let role?) where ["moderator", "participant", "visitor"].contains(role):
                    for member in members where Self.role(of: member) == role {
                        answer.append(Self.item(member.user, affiliation: member.role, role: role, context: context))
                    }
                default:
                    throw StanzaError.badRequest("ask for an affiliation (owner, admin, member, outcast) or a role")
                }
            }
            return answer
        }
        for item in items {
            let user = try await Self.itemUser(item, context: context)
            let member = MemberReference(conversationId: group, userId: user)
            let current = try await allMembers(of: group, me: me, context: context).first { $0.user.id == user }
            let reason = item.child("reason")?.text
            switch (item["affiliation"], item["role"]) {
            case ("outcast", _):
                try await groups.ban(by: me, BanParameters(conversationId: group, userId: user, reason: reason))
            case ("none", _) where current == nil:
                try await groups.unban(by: me, member)
            case (_, "none"), ("none", _):
                try await groups.remove(by: me, member)
            case ("owner", _):
                _ = try await groups.transfer(by: me, member)
            case ("admin", _), (_, "moderator"):
                try await groups.addAdmin(by: me, member)
            case ("member", _) where current == nil:
                try await groups.unban(by: me, member)
            case ("member", _):
                if current?.role == "admin" { try await groups.removeAdmin(by: me, member) }
            case (_, "visitor"):
                try await groups.mute(by: me, MuteMemberParameters(conversationId: group, userId: user,
                                                                   until: Int64(Date().timeIntervalSince1970 * 1000) + Self.visitorMute))
            case (_, "participant"):
                if current?.mutedUntil != nil { try await groups.unmute(by: me, member) }
                if current?.role == "admin" { try await groups.removeAdmin(by: me, member) }
            default:
                throw StanzaError.badRequest("an item sets a role or an affiliation")
            }
        }
        return nil
    }

    /// How long a `visitor` role (voice taken away) lasts: until a moderator gives voice back.
    static let visitorMute: Int64 = 10 * 365 * 24 * 3_600_000

    /// A member's role (XEP-0045 §5.1): the owner and admins moderate, the muted only listen.
    private static func role(of member: GroupMember) -> String {
        if member.role == "owner" || member.role == "admin" { return "moderator" }
        return member.mutedUntil == nil ? "participant" : "visitor"
    }

    private static func item(_ profile: UserProfile, affiliation: String, role: String, reason: String? = nil,
                             context: isolated some XMPPHandlerContext) -> XMLElement {
        let local = XMPPDirectory.localPart(of: profile)
        return XMLElement("item", namespace: Namespace.mucAdmin, [
            "affiliation": affiliation, "role": role, "jid": "\(local)@\(context.services.directory.domain)", "nick": local,
        ], children: reason.map { [XMLElement("reason", namespace: Namespace.mucAdmin, [:], text: $0)] } ?? [])
    }

    /// The user an item names, by `nick` or `jid`.
    private static func itemUser(_ item: XMLElement, context: isolated some XMPPHandlerContext) async throws -> UserID {
        if let nick = item["nick"] { return try await occupant(nick, directory: context.services.directory) }
        if let jid = item["jid"].flatMap(JID.init) { return try await context.services.directory.user(for: jid) }
        throw StanzaError.badRequest("an item names a member by nick or jid")
    }

    /// muc#admin of a Parley room (XEP-0045 §9, §8.2), the groups' mapping: its creator is
    /// `owner`, its admins `admin` (appointed and taken away by the creator), bans `outcast`;
    /// the creator and admins kick (role `none`), ban (`outcast`) and lift bans (`none`).
    private func moderateRoom(type: String, _ query: XMLElement, room: ConversationID, me: UserID,
                              context: isolated some XMPPHandlerContext) async throws -> XMLElement? {
        let items = query.elements.filter { $0.name == "item" }
        guard !items.isEmpty else { throw StanzaError.badRequest("name at least one item") }
        let rooms = context.services.rooms
        if type == "get" {
            var answer = XMLElement("query", namespace: Namespace.mucAdmin)
            for item in items {
                switch (item["affiliation"], item["role"]) {
                case (_, "participant"):
                    let occupants = try await AnswerPages.collect { cursor throws(ProtocolError) in
                        let page = try await rooms.occupants(for: me, OccupantsParameters(conversationId: room, cursor: cursor))
                        return (page.users, page.nextCursor)
                    }
                    for profile in occupants { answer.append(Self.item(profile, affiliation: "none", role: "participant", context: context)) }
                case ("outcast", _):
                    for ban in try await rooms.bans(for: me, ConversationReference(conversationId: room)).bans {
                        answer.append(Self.item(ban.user, affiliation: "outcast", role: "none", reason: ban.reason, context: context))
                    }
                case ("owner", _):
                    if let creator = try await rooms.standing(for: me, ConversationReference(conversationId: room)).creator {
                        answer.append(Self.item(creator, affiliation: "owner", role: "moderator", context: context))
                    }
                case ("admin", _):
                    for admin in try await rooms.standing(for: me, ConversationReference(conversationId: room)).admins {
                        answer.append(Self.item(admin, affiliation: "admin", role: "moderator", context: context))
                    }
                case ("member", _), (_, "moderator"), (_, "visitor"):
                    continue
                default:
                    throw StanzaError.badRequest("ask for an affiliation (owner, admin, member, outcast) or a role")
                }
            }
            return answer
        }
        for item in items {
            let user = try await Self.itemUser(item, context: context)
            let parameters = BanParameters(conversationId: room, userId: user, reason: item.child("reason")?.text)
            let member = MemberReference(conversationId: room, userId: user)
            switch (item["affiliation"], item["role"]) {
            case ("outcast", _): try await rooms.ban(by: me, parameters)
            case ("admin", _): try await rooms.addAdmin(by: me, member)
            case ("member", _): try await rooms.removeAdmin(by: me, member)
            case ("none", _):
                // An admin (never banned: a ban ends the role) loses the role, as in a group;
                // anyone else has their ban lifted.
                if await rooms.isAdmin(room, user: user) {
                    try await rooms.removeAdmin(by: me, member)
                } else {
                    try await rooms.unban(by: me, member)
                }
            case (_, "none"): try await rooms.kick(by: me, parameters)
            default:
                throw StanzaError(type: "cancel", condition: "not-allowed", "in a Parley room the creator appoints admins; they kick and ban")
            }
        }
        return nil
    }

    /// Every member of a group, page by page.
    private func allMembers(of group: ConversationID, me: UserID, context: isolated some XMPPHandlerContext) async throws -> [GroupMember] {
        var members: [GroupMember] = []
        var cursor: String?
        repeat {
            let page = try await context.services.groups.members(for: me, GroupMembersParameters(conversationId: group, cursor: cursor))
            members += page.members
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
    static let moderated = "muc#roomconfig_moderatedroom"
    /// Parley's join mode (`open`, `approval`, `invite`) and whether newcomers see earlier
    /// history, which the standard form has no fields for.
    static let joinMode = "parley#roomconfig_joinmode"
    static let showHistory = "parley#roomconfig_showhistory"

    /// The form: name, description and avatar, which can be changed, and whether the room is
    /// persistent and members-only, which it is or is not by being a group or a room.
    private func configurationForm(_ conversation: ConversationID, kind: ConversationKind, me: UserID, context: isolated some XMPPHandlerContext) async throws -> XMLElement {
        let reference = ConversationReference(conversationId: conversation)
        let (name, description, avatar): (String, String?, String?)
        var policy: [(String, [String])] = []
        if kind == .group {
            let info = try await context.services.groups.info(for: me, reference)
            (name, description, avatar) = (info.name, info.description, info.avatar)
            policy = [(Self.joinMode, [(info.joinMode ?? .open).rawValue]), (Self.showHistory, [info.showHistory == true ? "1" : "0"])]
        } else {
            let info = try await context.services.rooms.info(for: me, reference)
            (name, description, avatar) = (info.name, info.description, info.avatar)
        }
        let group = kind == .group ? "1" : "0"
        let form = DataForm(type: "form", fields: [
            ("FORM_TYPE", [Namespace.mucRoomConfig]),
            (Self.roomName, [name]),
            (Self.roomDescription, [description ?? ""]),
            (Self.roomAvatar, [avatar.map(context.services.absoluteURL) ?? ""]),
            (Self.persistent, [group]),
            (Self.membersOnly, [group]),
            (Self.moderated, ["0"]),
        ] + policy)
        return form.element(kinds: ["FORM_TYPE": "hidden", Self.roomName: "text-single", Self.roomDescription: "text-single",
                                    Self.roomAvatar: "text-single", Self.persistent: "boolean", Self.membersOnly: "boolean",
                                    Self.moderated: "boolean", Self.joinMode: "list-single", Self.showHistory: "boolean"],
                            labels: [Self.roomName: "Name", Self.roomDescription: "Description (the subject)", Self.roomAvatar: "Avatar link",
                                     Self.persistent: "Persistent (a group; fixed)", Self.membersOnly: "Members only (a group; fixed)",
                                     Self.moderated: "Moderated (no; moderators mute members one by one)",
                                     Self.joinMode: "Who may join: open, approval or invite",
                                     Self.showHistory: "Newcomers see earlier history"])
    }

    /// A submitted form: name, description and avatar become one `update` (any member of a
    /// group, anyone in a room, as natively). Persistence and membership are fixed by what
    /// the conversation is: a different value is `not-acceptable`. Other fields are ignored.
    /// A cancelled form, or an empty one (an "instant room"), changes nothing.
    private func configure(_ query: XMLElement, _ conversation: ConversationID, kind: ConversationKind, me: UserID, context: isolated some XMPPHandlerContext) async throws {
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
        if let value = form[Self.moderated], Self.boolean(value) {
            throw StanzaError(type: "modify", condition: "not-acceptable", "Parley has no moderated rooms; moderators mute members (role visitor)")
        }
        // An empty submission accepts the defaults (an instant room, XEP-0045 §10.1.2).
        guard form[Self.roomName] != nil || form[Self.roomDescription] != nil || form[Self.roomAvatar] != nil
                || form[Self.joinMode] != nil || form[Self.showHistory] != nil else { return }
        var update = GroupUpdate(conversationId: conversation)
        if kind == .group, let mode = form[Self.joinMode] {
            guard let joinMode = GroupJoinMode(rawValue: mode.trimmingWhitespace) else {
                throw StanzaError(type: "modify", condition: "not-acceptable", "a join mode is open, approval or invite")
            }
            update.joinMode = joinMode
        }
        if kind == .group, let show = form[Self.showHistory] { update.showHistory = Self.boolean(show) }
        if let name = form[Self.roomName] { update.name = .set(name) }
        if let description = form[Self.roomDescription]?.trimmingWhitespace {
            update.description = description.isEmpty ? .clear : .set(description)
        }
        if let avatar = form[Self.roomAvatar]?.trimmingWhitespace {
            update.avatar = avatar.isEmpty ? .clear : .set(context.services.mediaPath(avatar))
        }
        if kind == .group {
            _ = try await context.services.groups.update(by: me, update)
        } else {
            _ = try await context.services.rooms.update(by: me, update)
        }
    }

    /// A data form boolean (XEP-0004: `1`/`true`).
    private static func boolean(_ value: String) -> Bool {
        value == "1" || value == "true"
    }
}
