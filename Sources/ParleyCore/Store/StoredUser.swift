public import ParleyProtocol

/// A user row as the store keeps it.
public struct StoredUser: Sendable, Equatable {
    public var id: UserID
    /// The username as chosen (case kept for display); unique without regard to case.
    public var username: String?
    /// The argon2id hash string, nil for phone-only accounts.
    public var passwordHash: String?
    /// E.164 phone number, unique.
    public var phone: String?
    public var nickname: String?
    public var avatar: String?
    public var signature: String?
    public var age: Int?
    public var hobbies: [String]
    public var createdAt: Int64
    /// When the account was deleted (`Store.eraseUser`); its row stays, emptied, so the
    /// messages it sent keep a sender shown as "Deleted user".
    public var deletedAt: Int64?

    public init(id: UserID, username: String?, passwordHash: String?, phone: String?, nickname: String? = nil,
                avatar: String? = nil, signature: String? = nil, age: Int? = nil, hobbies: [String] = [],
                createdAt: Int64, deletedAt: Int64? = nil) {
        self.id = id
        self.username = username
        self.passwordHash = passwordHash
        self.phone = phone
        self.nickname = nickname
        self.avatar = avatar
        self.signature = signature
        self.age = age
        self.hobbies = hobbies
        self.createdAt = createdAt
        self.deletedAt = deletedAt
    }

    /// What anyone may see.
    public var profile: UserProfile {
        UserProfile(id: id, username: username, nickname: nickname, avatar: avatar, signature: signature,
                    age: age, hobbies: hobbies, createdAt: createdAt, deleted: deletedAt == nil ? nil : true)
    }

    /// What the user sees of themself.
    public var account: Account { Account(profile: profile, phone: phone) }
}

/// A new user before the store has given it an id.
public struct NewUser: Sendable, Equatable {
    public var username: String?
    public var passwordHash: String?
    public var phone: String?
    public var createdAt: Int64

    public init(username: String?, passwordHash: String?, phone: String?, createdAt: Int64) {
        self.username = username
        self.passwordHash = passwordHash
        self.phone = phone
        self.createdAt = createdAt
    }
}
