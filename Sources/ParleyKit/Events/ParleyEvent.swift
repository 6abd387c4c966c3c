public import ParleyProtocol

/// What the server pushed, after the client has stored it in its cache (so a view that
/// reloads from the cache on an event sees the change), plus a few client-side changes.
///
/// Messages are reported once per `(conversationId, seq)` and in seq order per conversation,
/// whether they came live, through `sync` after a reconnect, on entering a room, or as the
/// acknowledgement of this client's own send. (Pages asked for with `history` are returned to
/// the caller, not reported.)
public enum ParleyEvent: Sendable, Equatable {
    /// A message this client had not seen, in any conversation (also its own, once the server
    /// has stored it).
    case messageNew(Message)
    /// A read marker moved (on this device or another).
    case conversationRead(ReadState)
    /// Someone asked to be friends.
    case friendRequest(FriendRequest)
    /// A friendship began (a request was accepted, or a discover match).
    case friendAdded(Friend)
    /// A friendship ended.
    case friendRemoved(UserID)
    /// A friend came online or went offline; repeats of the same state are not reported.
    case presence(Presence)
    /// The signed-in account changed.
    case meUpdated(Account)
    /// A cached message changed (edited, recalled, reacted to, pinned, hidden): its state now.
    case messageUpdated(Message)
    /// The sessions list in the cache changed as a whole (after a sync, a room entered or
    /// left, a group joined…): reload it.
    case conversationsChanged
    /// The outbox changed: a message was queued, acknowledged or refused.
    case outboxChanged
    /// The server no longer accepts this device's session, or `logout()` was called: the
    /// cache is cleared and the app should show its sign-in screen.
    case signedOut
    /// Someone started or stopped typing in a conversation (the server ends a typing that
    /// is not refreshed and says so).
    case typing(TypingNotice)
    /// The other person of a 1:1 conversation read up to a sequence number: the ticks of
    /// this user's messages up to it turn to read.
    case receipt(ReceiptState)
    /// An admin answered this user's request to join a group.
    case groupRequestDecided(JoinRequestState)
    /// A member invited this user into a group (`joinGroup(invite:)` with its token).
    case groupInvited(GroupInvitation)
    /// This user was put out of a room (and barred, when banned).
    case roomKicked(RoomKick)
    /// The resources (devices and Jabber clients) a user, or the signed-in user, is online on
    /// changed (`ParleyClient.resources(of:)`).
    case resources(UserID)
}
