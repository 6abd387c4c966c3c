/// How much of a message a push notification shows (a per-user setting, `PATCH /v1/me`
/// `notificationPreview`): push services and lock screens see what the notification carries.
public enum NotificationPreview: String, Codable, Sendable, CaseIterable {
    /// The sender's name and the message's text.
    case full
    /// The sender's name only.
    case sender
    /// Neither: "a new message".
    case nothing
}
