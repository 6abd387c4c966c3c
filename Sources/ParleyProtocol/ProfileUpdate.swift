/// `PATCH /v1/me` body: only the fields present change; `null` clears a field.
public struct ProfileUpdate: Codable, Sendable, Equatable {
    public var username: FieldPatch<String> = .unchanged
    public var nickname: FieldPatch<String> = .unchanged
    public var avatar: FieldPatch<String> = .unchanged
    public var signature: FieldPatch<String> = .unchanged
    public var age: FieldPatch<Int> = .unchanged
    public var hobbies: FieldPatch<[String]> = .unchanged
    /// How much push notifications show; absent: unchanged.
    public var notificationPreview: NotificationPreview?

    public init(username: FieldPatch<String> = .unchanged, nickname: FieldPatch<String> = .unchanged,
                avatar: FieldPatch<String> = .unchanged, signature: FieldPatch<String> = .unchanged,
                age: FieldPatch<Int> = .unchanged, hobbies: FieldPatch<[String]> = .unchanged) {
        self.username = username
        self.nickname = nickname
        self.avatar = avatar
        self.signature = signature
        self.age = age
        self.hobbies = hobbies
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case username, nickname, avatar, signature, age, hobbies, notificationPreview
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        username = try container.decodePatch(String.self, forKey: .username)
        nickname = try container.decodePatch(String.self, forKey: .nickname)
        avatar = try container.decodePatch(String.self, forKey: .avatar)
        signature = try container.decodePatch(String.self, forKey: .signature)
        age = try container.decodePatch(Int.self, forKey: .age)
        hobbies = try container.decodePatch([String].self, forKey: .hobbies)
        notificationPreview = try container.decodeIfPresent(NotificationPreview.self, forKey: .notificationPreview)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodePatch(username, forKey: .username)
        try container.encodePatch(nickname, forKey: .nickname)
        try container.encodePatch(avatar, forKey: .avatar)
        try container.encodePatch(signature, forKey: .signature)
        try container.encodePatch(age, forKey: .age)
        try container.encodePatch(hobbies, forKey: .hobbies)
        try container.encodeIfPresent(notificationPreview, forKey: .notificationPreview)
    }

    /// True when no field is present.
    public var isEmpty: Bool {
        username == .unchanged && nickname == .unchanged && avatar == .unchanged
            && signature == .unchanged && age == .unchanged && hobbies == .unchanged && notificationPreview == nil
    }
}
