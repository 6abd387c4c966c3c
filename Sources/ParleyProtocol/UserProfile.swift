/// What anyone may see of a user (seed 000's contact fields plus the discover card's).
public struct UserProfile: Codable, Sendable, Equatable {
    /// The numeric id (`xid`).
    public var id: UserID
    /// The unique registered name (`xname`); nil for a phone account that has not chosen one.
    public var username: String?
    /// The display nickname, if set.
    public var nickname: String?
    /// An avatar: `/v1/media/<id>` for an uploaded image, or an http(s) URL.
    public var avatar: String?
    /// Free text: the user's signature ("show info").
    public var signature: String?
    /// Age, shown on discover cards.
    public var age: Int?
    /// Short hobby tags, shown on discover cards.
    public var hobbies: [String]
    /// When the account was created, ms since the epoch (UTC).
    public var createdAt: Int64
    /// True for a deleted account (shown as "Deleted user"); absent otherwise.
    public var deleted: Bool?

    public init(id: UserID, username: String? = nil, nickname: String? = nil, avatar: String? = nil,
                signature: String? = nil, age: Int? = nil, hobbies: [String] = [], createdAt: Int64,
                deleted: Bool? = nil) {
        self.id = id
        self.username = username
        self.nickname = nickname
        self.avatar = avatar
        self.signature = signature
        self.age = age
        self.hobbies = hobbies
        self.createdAt = createdAt
        self.deleted = deleted
    }

    /// Seed 000's rule: the nickname if set, else the username, else `ID: <id>`; a deleted
    /// account is "Deleted user".
    public var displayName: String {
        deleted == true ? DisplayName.deletedUser : DisplayName.of(nickname: nickname, username: username, id: id)
    }
}

/// The display-name rule shared by every client.
public enum DisplayName {
    /// What a deleted account is shown as (clients translate it).
    public static let deletedUser = "Deleted user"

    /// The nickname if non-empty, else the username if non-empty, else `ID: <id>`.
    public static func of(nickname: String?, username: String?, id: UserID) -> String {
        if let nickname, !nickname.isEmpty { return nickname }
        if let username, !username.isEmpty { return username }
        return "ID: \(id)"
    }
}
