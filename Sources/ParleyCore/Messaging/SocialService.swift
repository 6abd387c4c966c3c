public import ParleyProtocol

/// Friends, friend requests and blocks.
public final class SocialService: Sendable {
    let context: MessagingContext
    /// Finding people by name (`user.search`, `user.findable`).
    public let people: UserSearchService

    public init(context: MessagingContext) {
        self.context = context
        people = UserSearchService(context: context)
    }

    /// Asks `target` (by username or id) to be friends. If they had already asked, this makes
    /// the two friends at once; if this user had already asked, the pending request comes back.
    public func requestFriend(from user: UserID, _ parameters: FriendRequestParameters,
                              connection: ConnectionToken?) async throws(ProtocolError) -> FriendRequestOutcome {
        if let greeting = parameters.greeting { try context.rules.text.validate(greeting, as: .greeting) }
        let now = context.clock()
        let requestID = context.secrets.identifier()
        let outcome: RequestOutcome = try await context.gateway.write { writer in
            let target: StoredUser?
            if let id = parameters.userId {
                target = try writer.user(id: id)
            } else if let username = parameters.username {
                target = try writer.user(username: username)
            } else {
                throw ProtocolError(.missingField, "give a username or a userId", field: "username")
            }
            guard let target, let me = try writer.user(id: user) else { throw ProtocolError(.notFound, "no such user") }
            guard target.id != user else { throw ProtocolError(.invalidField, "you cannot befriend yourself", field: "userId") }
            guard try !Friendships.eitherBlocked(user, target.id, reader: writer) else {
                throw ProtocolError(.blocked, "one of you has blocked the other")
            }
            guard try writer.friendship(of: user, with: target.id) == nil else {
                throw ProtocolError(.alreadyFriends, "you are friends already")
            }
            if try writer.pendingFriendRequest(from: target.id, to: user) != nil {
                let (conversation, message) = try Friendships.befriend(
                    user, target.id, notice: SystemNotice(type: .friendAdded, actor: user, target: target.id), now: now, writer: writer, membership: self.context.membership)
                return .befriended(me.profile, target.profile, conversation.id, message)
            }
            if let existing = try writer.pendingFriendRequest(from: user, to: target.id) {
                return .pending(FriendRequest(id: existing.id, from: me.profile, to: target.profile, greeting: existing.greeting,
                                              createdAt: existing.createdAt), isNew: false)
            }
            let request = StoredFriendRequest(id: requestID, fromID: user, toID: target.id, greeting: parameters.greeting, createdAt: now)
            try writer.insertFriendRequest(request)
            return .pending(FriendRequest(id: request.id, from: me.profile, to: target.profile, greeting: request.greeting,
                                          createdAt: now), isNew: true)
        }
        switch outcome {
        case .pending(let request, let isNew):
            if isNew {
                context.delivery.deliver(.friendRequest(request), to: [request.to.id], excluding: nil)
                context.notifications?.requested(request)
            }
            return FriendRequestOutcome(request: request)
        case .befriended(let me, let other, let conversation, let message):
            Friendships.announce(me, other, conversation: conversation, message: message, since: now, context: context, excluding: connection)
            return FriendRequestOutcome(friend: Friendships.friend(other, conversation: conversation, since: now, delivery: context.delivery))
        }
    }

    private enum RequestOutcome: Sendable {
        case pending(FriendRequest, isNew: Bool)
        case befriended(UserProfile, UserProfile, ConversationID, Message)
    }

    /// Accepts a request sent to `user`.
    public func accept(_ requestID: String, by user: UserID) async throws(ProtocolError) -> Friend {
        let now = context.clock()
        let (me, requester, conversation, message) = try await context.gateway.write { writer in
            guard let request = try writer.friendRequest(id: requestID), request.toID == user else {
                throw ProtocolError(.notFound, "no such friend request")
            }
            guard try !Friendships.eitherBlocked(user, request.fromID, reader: writer) else {
                throw ProtocolError(.blocked, "one of you has blocked the other")
            }
            let me = try MessagingContext.profile(user, reader: writer)
            let requester = try MessagingContext.profile(request.fromID, reader: writer)
            let (conversation, message) = try Friendships.befriend(
                user, request.fromID, notice: SystemNotice(type: .friendAdded, actor: user, target: request.fromID), now: now, writer: writer, membership: self.context.membership)
            return (me, requester, conversation.id, message)
        }
        Friendships.announce(me, requester, conversation: conversation, message: message, since: now, context: context, excluding: nil)
        return Friendships.friend(requester, conversation: conversation, since: now, delivery: context.delivery)
    }

    /// Declines a request sent to `user` (the sender is not told).
    public func decline(_ requestID: String, by user: UserID) async throws(ProtocolError) {
        try await context.gateway.write { writer in
            guard let request = try writer.friendRequest(id: requestID), request.toID == user else {
                throw ProtocolError(.notFound, "no such friend request")
            }
            try writer.deleteFriendRequest(id: requestID)
        }
    }

    /// A page of the user's friends with their online state, oldest friendship first.
    public func friends(of user: UserID, _ page: PageParameters = PageParameters()) async throws(ProtocolError) -> FriendList {
        let after = try PageKey.parse(page.cursor)
        let limit = context.listLimit(page.limit)
        let budget = context.rules.maxAnswerBytes
        let delivery = context.delivery
        let result = try await context.gateway.read { reader in
            let friendships = try reader.friendships(of: user).sorted { Self.key($0) < Self.key($1) }
            return try AnswerPage<Friend>.of(friendships, key: Self.key, after: after, limit: limit, budget: budget, describe: { rows in
                let profiles = try MessagingContext.profiles(rows.map(\.friendID), reader: reader)
                let byID = Dictionary(profiles.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
                return rows.compactMap { row in
                    byID[row.friendID].map { (row, Friendships.friend($0, conversation: row.conversationID, since: row.since, delivery: delivery)) }
                }
            }, size: EncodedSizeBound.friend)
        }
        return FriendList(friends: result.items, nextCursor: result.nextCursor)
    }

    /// Every friend, every page: for gateways that send each as a stanza of its own (an XMPP
    /// roster), where no single answer grows with the list.
    public func allFriends(of user: UserID) async throws(ProtocolError) -> [Friend] {
        try await AnswerPages.collect { cursor throws(ProtocolError) in
            let page = try await self.friends(of: user, PageParameters(cursor: cursor))
            return (page.friends, page.nextCursor)
        }
    }

    /// Every pending request to the user, oldest first (see `allFriends`).
    public func allIncomingRequests(of user: UserID) async throws(ProtocolError) -> [FriendRequest] {
        try await AnswerPages.collect { cursor throws(ProtocolError) in
            let page = try await self.requests(of: user, FriendRequestsParameters(direction: .incoming, cursor: cursor))
            return (page.incoming, page.nextIncomingCursor)
        }
    }

    /// Every user this user blocked (see `allFriends`).
    public func allBlocked(by user: UserID) async throws(ProtocolError) -> [UserProfile] {
        try await AnswerPages.collect { cursor throws(ProtocolError) in
            let page = try await self.blocked(by: user, PageParameters(cursor: cursor))
            return (page.users, page.nextCursor)
        }
    }

    private static func key(_ friendship: StoredFriendship) -> PageKey {
        PageKey(number: friendship.since, tiebreak: String(friendship.friendID.rawValue))
    }

    /// The 1:1 conversation of two friends; `not_friends` if they are not. With `reachable`,
    /// also `blocked` if either has blocked the other (for what goes past the store, such as
    /// a gateway's typing notifications, which `send`'s checks never see).
    public func directConversation(of user: UserID, with other: UserID, reachable: Bool = false) async throws(ProtocolError) -> ConversationID {
        let (friendship, blocked) = try await context.gateway.read { reader in
            (try reader.friendship(of: user, with: other), reachable ? try Friendships.eitherBlocked(user, other, reader: reader) : false)
        }
        guard let friendship else { throw ProtocolError(.notFriends, "you are not friends") }
        guard !blocked else { throw ProtocolError(.blocked, "one of you has blocked the other") }
        return friendship.conversationID
    }

    /// `blocked` if either of the two has blocked the other: for what reaches a user past the
    /// store and needs no friendship (a gateway's invitation to a group chat).
    public func checkReachable(_ other: UserID, from user: UserID) async throws(ProtocolError) {
        let blocked = try await context.gateway.read { reader in try Friendships.eitherBlocked(user, other, reader: reader) }
        guard !blocked else { throw ProtocolError(.blocked, "one of you has blocked the other") }
    }

    /// Requests waiting for the user, and the ones they sent, oldest first: without a
    /// direction the first page of each (each within half the answer budget), with one the
    /// page of that list after the cursor.
    public func requests(of user: UserID, _ parameters: FriendRequestsParameters = FriendRequestsParameters()) async throws(ProtocolError) -> FriendRequestList {
        let after = try PageKey.parse(parameters.cursor)
        let limit = context.listLimit(parameters.limit)
        let budget = context.rules.maxAnswerBytes
        let direction = parameters.direction
        if after != nil && direction == nil {
            throw ProtocolError(.missingField, "a cursor continues one list: give its direction", field: "direction")
        }
        return try await context.gateway.read { reader in
            var list = FriendRequestList(incoming: [], outgoing: [])
            if direction != .outgoing {
                let page = try Self.requestPage(try reader.friendRequests(to: user), after: after, limit: limit,
                                                budget: direction == nil ? budget / 2 : budget, reader: reader)
                list.incoming = page.items
                list.nextIncomingCursor = page.nextCursor
            }
            if direction != .incoming {
                let page = try Self.requestPage(try reader.friendRequests(from: user), after: after, limit: limit,
                                                budget: direction == nil ? budget / 2 : budget, reader: reader)
                list.outgoing = page.items
                list.nextOutgoingCursor = page.nextCursor
            }
            return list
        }
    }

    /// One page of stored requests, oldest first, described with both people's profiles.
    static func requestPage(_ requests: [StoredFriendRequest], after: PageKey?, limit: Int, budget: Int,
                            reader: StoreReader) throws -> AnswerPage<FriendRequest> {
        let key = { (request: StoredFriendRequest) in PageKey(number: request.createdAt, tiebreak: request.id) }
        return try AnswerPage<FriendRequest>.of(requests.sorted { key($0) < key($1) }, key: key, after: after, limit: limit,
                                                budget: budget, describe: { rows in
            let described = try describe(rows, reader: reader)
            let byID = Dictionary(rows.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            return described.compactMap { request in byID[request.id].map { ($0, request) } }
        }, size: EncodedSizeBound.friendRequest)
    }

    static func describe(_ requests: [StoredFriendRequest], reader: StoreReader) throws -> [FriendRequest] {
        let profiles = try MessagingContext.profiles(Array(Set(requests.flatMap { [$0.fromID, $0.toID] })), reader: reader)
        let byID = Dictionary(profiles.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return requests.compactMap { request in
            guard let from = byID[request.fromID], let to = byID[request.toID] else { return nil }
            return FriendRequest(id: request.id, from: from, to: to, greeting: request.greeting, createdAt: request.createdAt)
        }
    }

    /// Ends a friendship; the conversation and its history stay, but no new 1:1 messages.
    public func removeFriend(_ other: UserID, by user: UserID) async throws(ProtocolError) {
        let membership = context.membership
        try await context.gateway.write { writer in
            membership.invalidatePair(user, other)
            guard try writer.friendship(of: user, with: other) != nil else { throw ProtocolError(.notFound, "not a friend") }
            try writer.deleteFriendship(user, other)
        }
        context.delivery.deliver(.friendRemoved(UserReference(userId: other)), to: [user], excluding: nil)
        context.delivery.deliver(.friendRemoved(UserReference(userId: user)), to: [other], excluding: nil)
    }

    /// Blocks `target`: no messages or requests between the two until unblocked. Pending
    /// requests between them are dropped.
    public func block(_ target: UserID, by user: UserID) async throws(ProtocolError) {
        let now = context.clock()
        let membership = context.membership
        try await context.gateway.write { writer in
            guard target != user else { throw ProtocolError(.invalidField, "you cannot block yourself", field: "userId") }
            membership.invalidatePair(user, target)
            guard try writer.user(id: target) != nil else { throw ProtocolError(.notFound, "no such user") }
            if try !writer.isBlocked(target, by: user) { try writer.insertBlock(by: user, target: target, at: now) }
            try writer.deleteFriendRequests(between: user, and: target)
        }
    }

    /// Lifts a block.
    public func unblock(_ target: UserID, by user: UserID) async throws(ProtocolError) {
        let membership = context.membership
        try await context.gateway.write { writer in
            // Lifting a block only ever allows more, but the pair's verdict is re-read anyway
            // so that every change of a block goes through the same rule.
            membership.invalidatePair(user, target)
            try writer.deleteBlock(by: user, target: target)
        }
    }

    /// Everyone the user has blocked.
    public func blocked(by user: UserID, _ page: PageParameters = PageParameters()) async throws(ProtocolError) -> UserList {
        let after = try PageKey.parse(page.cursor)
        let limit = context.listLimit(page.limit)
        let budget = context.rules.maxAnswerBytes
        return try await context.gateway.read { reader in
            try MessagingContext.userPage(try reader.blockedUsers(by: user), after: after, limit: limit, budget: budget, reader: reader)
        }
    }
}
