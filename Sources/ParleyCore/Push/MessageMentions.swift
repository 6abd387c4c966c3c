public import ParleyProtocol

/// Whether a message mentions a user: what lets it through a `mentionsOnly` mute.
///
/// A seam: messages carry no mentions yet, so this says no until they do; then it reads the
/// message's list of mentioned users, and the push rules need no other change.
public enum MessageMentions {
    public static func mentions(_ message: Message, _ user: UserID) -> Bool {
        false
    }
}
