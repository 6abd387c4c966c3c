public import ParleyProtocol

/// Groups: lasting membership, a unique name, info any member may edit (each edit a system
/// notification), an owner who may remove members and hand over ownership.
public final class GroupService: Sendable {
    let context: MessagingContext

    public init(context: MessagingContext) {
        self.context = context
    }

    /// Creates a group owned by `user`.
    public func create(by user: UserID, _ parameters: CreateParameters) async throws(ProtocolError) -> GroupInfo {
        let membership = context.membership
        let name = try context.validName(parameters.name)
        try context.validDescription(parameters.description)
        if let avatar = parameters.avatar { try AccountValidator(rules: AccountRules()).validateAvatar(avatar) }
        let now = context.clock()
        let (info, message) = try await context.gateway.write { writer in
            if try writer.conversation(kind: .group, name: name) != nil {
                throw ProtocolError(.nameTaken, "a group named '\(name)' exists", field: "name")
            }
            let group = try writer.insertConversation(NewConversation(kind: .group, name: name, avatar: parameters.avatar,
                                                                      description: parameters.description, ownerID: user, createdAt: now))
            try writer.saveMember(StoredMember(conversationID: group.id, userID: user, role: .owner, joinedAt: now, readSeq: 0))
            // New groups are open, and hide what was said before a newcomer joined.
            try writer.saveGroupPolicy(GroupPolicy(joinMode: .open, showHistory: false), of: group.id)
            try MediaReference.mark(avatar: parameters.avatar, at: now, writer: writer)
            membership.invalidate(group.id)
            let message = try Self.notice(.groupCreated, in: group.id, actor: user, name: name, now: now, writer: writer)
            _ = try writer.markRead(conversation: group.id, user: user, upTo: message.seq)
            return (try Self.info(group.id, for: user, reader: writer), message)
        }
        context.announce([message], to: [user], kind: .group, excluding: nil)
        return info
    }

    /// Joins a group by name (joining twice is harmless).
    public func join(by user: UserID, _ parameters: NameReference) async throws(ProtocolError) -> GroupInfo {
        let name = parameters.name
        return try await join(user) { reader in
            guard let group = try reader.conversation(kind: .group, name: name.trimmingCharacters(in: " ")) else {
                throw ProtocolError(.notFound, "no group named '\(name)'")
            }
            return group
        }
    }

    /// Joins a group by id, for gateways whose addresses name groups by id (an XMPP room
    /// JID); the same rule as joining by name, which anyone may.
    public func join(by user: UserID, _ parameters: ConversationReference) async throws(ProtocolError) -> GroupInfo {
        let id = parameters.conversationId
        return try await join(user) { reader in
            guard let group = try reader.conversation(id: id), group.kind == .group else { throw ProtocolError(.notFound, "no such group") }
            return group
        }
    }

    /// Joins by the group's join mode: an open group at once; an `approval` group files a
    /// request (answered with `pending`); an `invite` group only with a member's invitation.
    /// Banned users are refused whatever the mode.
    private func join(_ user: UserID,
                      finding find: @escaping @Sendable (StoreReader) throws -> StoredConversation) async throws(ProtocolError) -> GroupInfo {
        let membership = context.membership
        let now = context.clock()
        let (info, message, members) = try await context.gateway.write { writer in
            let group = try find(writer)
            if try writer.member(of: group.id, user: user) != nil {
                return (try Self.info(group.id, for: user, reader: writer), nil as Message?, [UserID]())
            }
            try Self.checkNotBanned(user, from: group.id, reader: writer)
            let policy = try Self.policy(of: group.id, reader: writer)
            if var invitation = try writer.invitation(in: group.id, for: user), Self.problem(with: invitation, now: now) == nil {
                invitation.uses += 1
                try writer.updateInvite(invitation)
            } else {
                switch policy.joinMode {
                case .open:
                    break
                case .invite:
                    throw ProtocolError(.inviteOnly, "this group is joined by invitation only")
                case .approval:
                    guard try writer.joinRequest(in: group.id, user: user) == nil else {
                        var info = try Self.info(group.id, for: user, reader: writer)
                        info.pending = true
                        return (info, nil, [])
                    }
                    guard try writer.joinRequests(in: group.id, limit: self.context.rules.maxJoinRequests).count
                            < self.context.rules.maxJoinRequests else {
                        throw ProtocolError(.rateLimited, "this group has too many pending requests; try later")
                    }
                    try writer.saveJoinRequest(StoredJoinRequest(conversationID: group.id, userID: user, createdAt: now))
                    let message = try Self.notice(.joinRequested, in: group.id, actor: user, now: now, writer: writer)
                    var info = try Self.info(group.id, for: user, reader: writer)
                    info.pending = true
                    return (info, message, try writer.memberIDs(of: group.id))
                }
            }
            let message = try Self.admit(user, to: group, policy: policy, now: now, writer: writer, membership: membership)
            return (try Self.info(group.id, for: user, reader: writer), message, try writer.memberIDs(of: group.id))
        }
        if let message { context.announce([message], to: members, kind: .group, excluding: nil) }
        return info
    }

    /// Makes `user` a member, with the notice that says so; the one way in, whichever door
    /// they came through. A newcomer sees history from here on unless the group shows it,
    /// and has read up to their own notice.
    static func admit(_ user: UserID, to group: StoredConversation, policy: GroupPolicy, now: Int64,
                      writer: StoreWriter, membership: MembershipCache) throws -> Message {
        let current = try writer.conversation(id: group.id)?.lastSeq ?? group.lastSeq
        try writer.saveMember(StoredMember(conversationID: group.id, userID: user, role: .member, joinedAt: now, readSeq: current,
                                           historyFrom: policy.showHistory ? 0 : current))
        _ = try writer.deleteJoinRequest(in: group.id, user: user)
        membership.invalidate(group.id)
        let message = try notice(.memberJoined, in: group.id, actor: user, now: now, writer: writer)
        _ = try writer.markRead(conversation: group.id, user: user, upTo: message.seq)
        return message
    }

    /// The group's rules of entry; groups older than them stay open with history shown.
    static func policy(of group: ConversationID, reader: StoreReader) throws -> GroupPolicy {
        try reader.groupPolicy(of: group) ?? GroupPolicy(joinMode: .open, showHistory: true)
    }

    /// Banned users do not come back, by any door.
    static func checkNotBanned(_ user: UserID, from conversation: ConversationID, reader: StoreReader) throws {
        if try reader.ban(in: conversation, user: user) != nil {
            throw ProtocolError(.banned, "you are banned from this conversation")
        }
    }

    /// Leaves a group. An owner who leaves hands the group to the longest-standing member.
    public func leave(by user: UserID, _ parameters: ConversationReference) async throws(ProtocolError) {
        let membership = context.membership
        let now = context.clock()
        let (messages, members) = try await context.gateway.write { writer in
            var (group, member) = try ConversationAccess.group(parameters.conversationId, member: user, reader: writer)
            try writer.deleteMember(of: group.id, user: user)
            membership.invalidate(group.id)
            var messages = [try Self.notice(.memberLeft, in: group.id, actor: user, now: now, writer: writer)]
            if member.role == .owner, let heir = try writer.members(of: group.id, after: nil, limit: Int.max)
                .min(by: { ($0.joinedAt, $0.userID) < ($1.joinedAt, $1.userID) }) {
                member = heir
                member.role = .owner
                try writer.saveMember(member)
                group.ownerID = heir.userID
                try writer.updateConversation(group)
                messages.append(try Self.notice(.ownerChanged, in: group.id, actor: user, target: heir.userID, now: now, writer: writer))
            }
            return (messages, try writer.memberIDs(of: group.id) + [user])
        }
        context.announce(messages, to: members, kind: .group, excluding: nil)
    }

    /// A page of members (ascending user id).
    public func members(for user: UserID, _ parameters: GroupMembersParameters) async throws(ProtocolError) -> GroupMemberPage {
        let limit = min(max(parameters.limit ?? 100, 1), context.rules.maxMemberPage)
        var cursor: UserID?
        if let text = parameters.cursor {
            guard let parsed = UserID(string: text) else { throw ProtocolError(.invalidField, "unknown cursor", field: "cursor") }
            cursor = parsed
        }
        let after = cursor
        let now = context.clock()
        return try await context.gateway.read { reader in
            _ = try ConversationAccess.group(parameters.conversationId, member: user, reader: reader)
            let members = try reader.members(of: parameters.conversationId, after: after, limit: limit)
            let profiles = Dictionary(try MessagingContext.profiles(members.map(\.userID), reader: reader).map { ($0.id, $0) },
                                      uniquingKeysWith: { a, _ in a })
            let mutes = try reader.mutes(in: parameters.conversationId)
            return GroupMemberPage(
                members: members.compactMap { member in
                    profiles[member.userID].map { profile in
                        var entry = GroupMember(user: profile, role: member.role.rawValue, joinedAt: member.joinedAt)
                        entry.mutedUntil = mutes[member.userID].flatMap { $0 > now ? $0 : nil }
                        return entry
                    }
                },
                nextCursor: members.count == limit ? members.last?.userID.description : nil)
        }
    }

    /// The group's information, for members.
    public func info(for user: UserID, _ parameters: ConversationReference) async throws(ProtocolError) -> GroupInfo {
        try await context.gateway.read { reader in
            _ = try ConversationAccess.group(parameters.conversationId, member: user, reader: reader)
            return try Self.info(parameters.conversationId, for: user, reader: reader)
        }
    }

    /// Changes name, avatar or description (any member may, seed 000), the join mode or
    /// whether newcomers see earlier history (the owner and admins); everyone in the group
    /// sees a system notification saying what changed.
    public func update(by user: UserID, _ update: GroupUpdate) async throws(ProtocolError) -> GroupInfo {
        let edit = try ConversationInfoEdit(update, context: context)
        let now = context.clock()
        let (info, messages, members) = try await context.gateway.write { writer in
            let (found, member) = try ConversationAccess.group(update.conversationId, member: user, reader: writer)
            var group = found
            // The rules of entry are the admins'; restating them unchanged (a whole form
            // sent back, say) is anyone's.
            let old = try Self.policy(of: group.id, reader: writer)
            let new = GroupPolicy(joinMode: update.joinMode ?? old.joinMode, showHistory: update.showHistory ?? old.showHistory)
            if new != old, member.role == .member {
                throw ProtocolError(.notAdmin, "only the group's owner or an admin may change who joins and what they see")
            }
            var messages: [Message] = []
            if let message = try edit.apply(to: &group, by: user, now: now, writer: writer) { messages.append(message) }
            if new != old {
                let fields = (new.joinMode != old.joinMode ? ["joinMode"] : []) + (new.showHistory != old.showHistory ? ["showHistory"] : [])
                try writer.saveGroupPolicy(new, of: group.id)
                messages.append(try Self.notice(.infoChanged, in: group.id, actor: user, fields: fields, now: now, writer: writer))
            }
            return (try Self.info(group.id, for: user, reader: writer), messages, messages.isEmpty ? [] : try writer.memberIDs(of: group.id))
        }
        context.announce(messages, to: members, kind: .group, excluding: nil)
        return info
    }

    /// The owner removes anyone, an admin removes members.
    public func remove(by user: UserID, _ parameters: MemberReference) async throws(ProtocolError) {
        let membership = context.membership
        let now = context.clock()
        let (message, members) = try await context.gateway.write { writer in
            let (group, actor) = try ConversationAccess.group(parameters.conversationId, admin: user, reader: writer)
            guard parameters.userId != user else { throw ProtocolError(.invalidField, "leave the group instead", field: "userId") }
            guard let target = try writer.member(of: group.id, user: parameters.userId) else {
                throw ProtocolError(.notFound, "that user is not a member")
            }
            try ConversationAccess.checkOutranks(actor, target, targetID: parameters.userId)
            try writer.deleteMember(of: group.id, user: parameters.userId)
            membership.invalidate(group.id)
            let message = try Self.notice(.memberRemoved, in: group.id, actor: user, target: parameters.userId, now: now, writer: writer)
            return (message, try writer.memberIDs(of: group.id) + [parameters.userId])
        }
        context.announce([message], to: members, kind: .group, excluding: nil)
    }

    /// The owner hands the group to another member.
    public func transfer(by user: UserID, _ parameters: MemberReference) async throws(ProtocolError) -> GroupInfo {
        let now = context.clock()
        let (info, message, members) = try await context.gateway.write { writer in
            var group = try ConversationAccess.group(parameters.conversationId, owner: user, reader: writer)
            guard parameters.userId != user else { throw ProtocolError(.invalidField, "you own the group already", field: "userId") }
            guard var heir = try writer.member(of: group.id, user: parameters.userId),
                  var owner = try writer.member(of: group.id, user: user) else {
                throw ProtocolError(.notFound, "that user is not a member")
            }
            heir.role = .owner
            owner.role = .member
            try writer.saveMember(heir)
            try writer.saveMember(owner)
            group.ownerID = heir.userID
            try writer.updateConversation(group)
            let message = try Self.notice(.ownerChanged, in: group.id, actor: user, target: heir.userID, now: now, writer: writer)
            return (try Self.info(group.id, for: user, reader: writer), message, try writer.memberIDs(of: group.id))
        }
        context.announce([message], to: members, kind: .group, excluding: nil)
        return info
    }

    /// The group's information as `user` sees it: with its rules and their role.
    static func info(_ id: ConversationID, for user: UserID? = nil, reader: StoreReader) throws -> GroupInfo {
        guard let group = try reader.conversation(id: id), let name = group.name, let owner = group.ownerID else {
            throw ProtocolError(.notFound, "no such group")
        }
        var info = GroupInfo(id: id, name: name, avatar: group.avatar, description: group.description, ownerId: owner,
                             memberCount: try reader.memberCount(of: id), createdAt: group.createdAt)
        let policy = try policy(of: id, reader: reader)
        info.joinMode = policy.joinMode
        info.showHistory = policy.showHistory
        if let user { info.role = try reader.member(of: id, user: user)?.role.rawValue }
        return info
    }

    static func notice(_ type: SystemNoticeType, in conversation: ConversationID, actor: UserID, target: UserID? = nil,
                       fields: [String]? = nil, name: String? = nil, now: Int64, writer: StoreWriter) throws -> Message {
        try writer.appendMessage(NewMessage(conversationID: conversation, sender: nil, clientID: nil, kind: .system,
                                            system: SystemNotice(type: type, actor: actor, target: target, fields: fields, name: name),
                                            createdAt: now))
    }
}
