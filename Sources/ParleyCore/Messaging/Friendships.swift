import ParleyProtocol

/// Making and describing friendships: shared by friend requests and discover matches.
enum Friendships {
    /// Makes `a` and `b` friends inside a write: reuses their 1:1 conversation if they had
    /// one, adds both as members, drops pending requests, and appends the system notice.
    /// Returns the conversation and the notice message.
    static func befriend(_ a: UserID, _ b: UserID, notice: SystemNotice, now: Int64,
                         writer: StoreWriter, membership: MembershipCache) throws -> (StoredConversation, Message) {
        let conversation: StoredConversation
        if let existing = try writer.directConversation(between: a, and: b) {
            conversation = existing
        } else {
            conversation = try writer.insertConversation(NewConversation(kind: .user, userA: min(a, b), userB: max(a, b), createdAt: now))
        }
        membership.invalidate(conversation.id)
        membership.invalidatePair(a, b)
        for user in [a, b] where try writer.member(of: conversation.id, user: user) == nil {
            try writer.saveMember(StoredMember(conversationID: conversation.id, userID: user, role: .member, joinedAt: now,
                                               readSeq: conversation.lastSeq))
        }
        try writer.insertFriendship(a, b, conversation: conversation.id, at: now)
        try writer.deleteFriendRequests(between: a, and: b)
        let message = try writer.appendMessage(NewMessage(conversationID: conversation.id, sender: nil, clientID: nil,
                                                          kind: .system, system: notice, createdAt: now))
        return (conversation, message)
    }

    /// The `Friend` that `viewer` sees for `other`.
    static func friend(_ other: UserProfile, conversation: ConversationID, since: Int64, delivery: Delivery) -> Friend {
        Friend(user: other, conversationId: conversation, since: since, online: delivery.isOnline(other.id))
    }

    /// Tells both people of a new friendship, and delivers the notice message.
    static func announce(_ a: UserProfile, _ b: UserProfile, conversation: ConversationID, message: Message,
                         since: Int64, context: MessagingContext, excluding: ConnectionToken?) {
        context.delivery.deliver(.friendAdded(friend(b, conversation: conversation, since: since, delivery: context.delivery)), to: [a.id], excluding: nil)
        context.delivery.deliver(.friendAdded(friend(a, conversation: conversation, since: since, delivery: context.delivery)), to: [b.id], excluding: nil)
        context.announce([message], to: [a.id, b.id], kind: .user, excluding: nil)
    }

    /// Whether either of the two blocked the other.
    static func eitherBlocked(_ a: UserID, _ b: UserID, reader: StoreReader) throws -> Bool {
        try reader.isBlocked(b, by: a) || reader.isBlocked(a, by: b)
    }
}
