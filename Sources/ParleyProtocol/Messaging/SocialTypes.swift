/// A friend request.
public struct FriendRequest: Codable, Sendable, Equatable {
    public var id: String
    public var from: UserProfile
    public var to: UserProfile
    public var greeting: String?
    public var createdAt: Int64

    public init(id: String, from: UserProfile, to: UserProfile, greeting: String?, createdAt: Int64) {
        self.id = id
        self.from = from
        self.to = to
        self.greeting = greeting
        self.createdAt = createdAt
    }
}

/// A friend: their profile, your 1:1 conversation, and whether they are online.
public struct Friend: Codable, Sendable, Equatable {
    public var user: UserProfile
    public var conversationId: ConversationID
    public var since: Int64
    public var online: Bool

    public init(user: UserProfile, conversationId: ConversationID, since: Int64, online: Bool) {
        self.user = user
        self.conversationId = conversationId
        self.since = since
        self.online = online
    }
}

/// A friend came online or went offline.
public struct Presence: Codable, Sendable, Equatable {
    public var userId: UserID
    public var online: Bool
    public var at: Int64

    public init(userId: UserID, online: Bool, at: Int64) {
        self.userId = userId
        self.online = online
        self.at = at
    }
}
