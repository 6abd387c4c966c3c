/// The signed-in user's own view of their account: the public profile plus private fields.
public struct Account: Codable, Sendable, Equatable {
    /// The public part.
    public var profile: UserProfile
    /// The phone number the account logs in with, if any (E.164, e.g. `+8613800138000`).
    public var phone: String?
    /// How much push notifications show (absent: `full`).
    public var notificationPreview: NotificationPreview?

    public init(profile: UserProfile, phone: String? = nil, notificationPreview: NotificationPreview? = nil) {
        self.profile = profile
        self.phone = phone
        self.notificationPreview = notificationPreview
    }

    private enum CodingKeys: String, CodingKey { case phone, notificationPreview }

    // Encoded flat: the profile's fields and `phone` in one object.
    public init(from decoder: Decoder) throws {
        profile = try UserProfile(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        phone = try container.decodeIfPresent(String.self, forKey: .phone)
        notificationPreview = try container.decodeIfPresent(NotificationPreview.self, forKey: .notificationPreview)
    }

    public func encode(to encoder: Encoder) throws {
        try profile.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(phone, forKey: .phone)
        try container.encodeIfPresent(notificationPreview, forKey: .notificationPreview)
    }
}
