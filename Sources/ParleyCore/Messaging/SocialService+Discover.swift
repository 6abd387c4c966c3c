public import ParleyProtocol

/// Discover (seed 004): a deck of people to swipe; a like on both sides is a match.
extension SocialService {
    /// The next cards for `user`. The cursor is opaque to clients (the last id shown).
    public func deck(for user: UserID, _ page: PageParameters) async throws(ProtocolError) -> DiscoverDeck {
        let limit = min(max(page.limit ?? 20, 1), context.rules.maxDeckPage)
        var cursor: UserID?
        if let text = page.cursor {
            guard let parsed = UserID(string: text) else { throw ProtocolError(.invalidField, "unknown cursor", field: "cursor") }
            cursor = parsed
        }
        let after = cursor
        let users = try await context.gateway.read { reader in
            try reader.discoverCandidates(for: user, after: after, limit: limit)
        }
        return DiscoverDeck(cards: users.map(\.profile), nextCursor: users.count == limit ? users.last.map { $0.id.description } : nil)
    }

    /// Likes `target`; if they liked this user too, the two become friends ("matched").
    public func like(_ target: UserID, by user: UserID) async throws(ProtocolError) -> LikeOutcome {
        let now = context.clock()
        let outcome: (UserProfile, UserProfile, ConversationID, Message)? = try await context.gateway.write { writer in
            try Self.checkSwipe(target, by: user, writer: writer)
            try writer.saveSwipe(StoredSwipe(userID: user, targetID: target, liked: true, createdAt: now))
            guard try writer.swipe(by: target, on: user)?.liked == true else { return nil }
            let (conversation, message) = try Friendships.befriend(
                user, target, notice: SystemNotice(type: .matched, actor: user, target: target), now: now, writer: writer, membership: self.context.membership)
            return (try MessagingContext.profile(user, reader: writer), try MessagingContext.profile(target, reader: writer),
                    conversation.id, message)
        }
        guard let (me, other, conversation, message) = outcome else { return LikeOutcome(matched: false, friend: nil) }
        Friendships.announce(me, other, conversation: conversation, message: message, since: now, context: context, excluding: nil)
        return LikeOutcome(matched: true, friend: Friendships.friend(other, conversation: conversation, since: now, delivery: context.delivery))
    }

    /// Passes on `target`: the card does not come back (unless undone).
    public func pass(_ target: UserID, by user: UserID) async throws(ProtocolError) {
        let now = context.clock()
        try await context.gateway.write { writer in
            try Self.checkSwipe(target, by: user, writer: writer)
            try writer.saveSwipe(StoredSwipe(userID: user, targetID: target, liked: false, createdAt: now))
        }
    }

    /// Takes back the last swipe and returns its card. A like that made a match cannot be
    /// taken back (the two are friends; remove the friend instead).
    public func undo(by user: UserID) async throws(ProtocolError) -> UndoOutcome {
        try await context.gateway.write { writer in
            guard let last = try writer.lastSwipe(by: user) else { return UndoOutcome(card: nil) }
            if try writer.friendship(of: user, with: last.targetID) != nil {
                throw ProtocolError(.alreadyFriends, "that like made a match; it cannot be undone")
            }
            try writer.deleteSwipe(by: user, on: last.targetID)
            return UndoOutcome(card: try writer.user(id: last.targetID)?.profile)
        }
    }

    private static func checkSwipe(_ target: UserID, by user: UserID, writer: StoreWriter) throws {
        guard target != user else { throw ProtocolError(.invalidField, "you cannot swipe yourself", field: "userId") }
        guard try writer.user(id: target) != nil else { throw ProtocolError(.notFound, "no such user") }
        guard try !Friendships.eitherBlocked(user, target, reader: writer) else {
            throw ProtocolError(.blocked, "one of you has blocked the other")
        }
        guard try writer.friendship(of: user, with: target) == nil else {
            throw ProtocolError(.alreadyFriends, "you are friends already")
        }
    }
}
