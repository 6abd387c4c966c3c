public import ParleyProtocol

/// Friends, friend requests and blocks.
public final class SocialService: Sendable {
    let context: MessagingContext

    public init(context: MessagingContext) {
        self.context = context
    }

    /// Asks `target` (by username or id) to be friends. If they had already asked, this makes
    /// the two friends at once; if this user had already asked, the pending request comes back.
    public func requestFriend(from user: UserID, _ parameters: FriendRequestParameters,
                              connection: ConnectionToken?) async throws(ProtocolError) -> FriendRequestOutcome {
        if let greeting = parameters.greeting, greeting.count > context.rules.maxGreetingLength {
            throw ProtocolError(.invalidField, "a greeting has at most \(context.rules.maxGreetingLength) characters", field: "greeting")
        }
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
                context.delivery.deliver(event: EventName.friendRequest, payload: request, to: [request.to.id], excluding: nil)
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

    /// The user's friends with their online state.
    public func friends(of user: UserID) async throws(ProtocolError) -> FriendList {
        let rows = try await context.gateway.read { reader in
            let friendships = try reader.friendships(of: user)
            let profiles = try MessagingContext.profiles(friendships.map(\.friendID), reader: reader)
            let byID = Dictionary(profiles.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            return friendships.compactMap { friendship in byID[friendship.friendID].map { (friendship, $0) } }
        }
        return FriendList(friends: rows.map { friendship, profile in
            Friendships.friend(profile, conversation: friendship.conversationID, since: friendship.since, delivery: context.delivery)
        })
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

    /// Requests waiting for the user, and the ones they sent.
    public func requests(of user: UserID) async throws(ProtocolError) -> FriendRequestList {
        try await context.gateway.read { reader in
            try FriendRequestList(incoming: Self.describe(try reader.friendRequests(to: user), reader: reader),
                                  outgoing: Self.describe(try reader.friendRequests(from: user), reader: reader))
        }
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
        context.delivery.deliver(event: EventName.friendRemoved, payload: UserReference(userId: other), to: [user], excluding: nil)
        context.delivery.deliver(event: EventName.friendRemoved, payload: UserReference(userId: user), to: [other], excluding: nil)
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
    public func blocked(by user: UserID) async throws(ProtocolError) -> UserList {
        try await context.gateway.read { reader in
            UserList(users: try MessagingContext.profiles(try reader.blockedUsers(by: user), reader: reader))
        }
    }
}
