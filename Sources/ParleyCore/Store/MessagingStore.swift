public import ParleyProtocol

/// Messaging queries (part of `StoreReader`). Lists come in a stable order, as noted.
public protocol MessagingReader {
    // Users
    /// The users with these ids that exist, in any order.
    func users(ids: [UserID]) throws -> [StoredUser]

    // Friends and blocks
    /// `user`'s side of a friendship with `other`.
    func friendship(of user: UserID, with other: UserID) throws -> StoredFriendship?
    /// Every friend of `user`, oldest friendship first.
    func friendships(of user: UserID) throws -> [StoredFriendship]
    func friendRequest(id: String) throws -> StoredFriendRequest?
    /// The pending request from `from` to `to`, if any.
    func pendingFriendRequest(from: UserID, to: UserID) throws -> StoredFriendRequest?
    /// Pending requests to `user`, oldest first.
    func friendRequests(to user: UserID) throws -> [StoredFriendRequest]
    /// Pending requests from `user`, oldest first.
    func friendRequests(from user: UserID) throws -> [StoredFriendRequest]
    /// Whether `user` has blocked `target`.
    func isBlocked(_ target: UserID, by user: UserID) throws -> Bool
    /// Everyone `user` has blocked, oldest block first.
    func blockedUsers(by user: UserID) throws -> [UserID]

    // Discover
    /// People `user` may still swipe: not `user`, not friends, not blocked in either
    /// direction, not swiped by `user` yet; ascending id after `cursor`, at most `limit`.
    func discoverCandidates(for user: UserID, after cursor: UserID?, limit: Int) throws -> [StoredUser]
    func swipe(by user: UserID, on target: UserID) throws -> StoredSwipe?
    /// The newest swipe of `user` (for undo).
    func lastSwipe(by user: UserID) throws -> StoredSwipe?

    // Conversations
    func conversation(id: ConversationID) throws -> StoredConversation?
    /// A group or room by name, without regard to case.
    func conversation(kind: ConversationKind, name: String) throws -> StoredConversation?
    /// The 1:1 conversation of two users (either order).
    func directConversation(between a: UserID, and b: UserID) throws -> StoredConversation?
    func member(of conversation: ConversationID, user: UserID) throws -> StoredMember?
    /// Members in ascending user id after `cursor`, at most `limit`.
    func members(of conversation: ConversationID, after cursor: UserID?, limit: Int) throws -> [StoredMember]
    /// Every member's id.
    func memberIDs(of conversation: ConversationID) throws -> [UserID]
    func memberCount(of conversation: ConversationID) throws -> Int
    /// The sessions list of `user`: every 1:1 and group conversation they belong to, newest
    /// activity first, with the last message and the unread count (`unreadCount`) of each.
    func inbox(of user: UserID) throws -> [InboxEntry]
    /// The unread messages of `user` in every 1:1 and group conversation they belong to (the
    /// conversations of `inbox(of:)`): the sum of their unread counts.
    func totalUnread(for user: UserID) throws -> Int64
    /// What counts as unread for `user` in `conversation` after `seq` (their read marker):
    /// messages of every kind from others, unless recalled, and system notices (joins,
    /// leaves, changes), but not the events that act on an earlier message (edits, recalls,
    /// reactions, pins, listened marks: `SystemNoticeType.isMessageAction`) nor anything
    /// the user sent.
    func unreadCount(in conversation: ConversationID, for user: UserID, after seq: Int64) throws -> Int64

    // Messages
    func message(in conversation: ConversationID, seq: Int64) throws -> Message?
    /// Up to `limit` messages before `seq` (exclusive; nil = from the newest), oldest first.
    func messages(in conversation: ConversationID, before seq: Int64?, limit: Int) throws -> [Message]
    /// Up to `limit` messages after `seq` (exclusive), oldest first.
    func messages(in conversation: ConversationID, after seq: Int64, limit: Int) throws -> [Message]
    /// The message `sender` sent with `clientID`, if any (idempotent retries).
    func message(sender: UserID, clientID: String) throws -> Message?
    /// The message with this server id, in any conversation.
    func message(id: Int64) throws -> Message?

    // The archive (`ArchiveRange`): every message but system notices, in creation time,
    // then id, order; read by the index `messages_archive`.
    /// Up to `limit` archived messages of `conversation` in `range`, oldest first: the oldest
    /// of the range, or with `range.newest` the newest.
    func archivedMessages(in conversation: ConversationID, _ range: ArchiveRange, limit: Int) throws -> [Message]
    /// How many archived messages of `conversation` were created within `start...end` (nil:
    /// unbounded).
    func archivedMessageCount(in conversation: ConversationID, start: Int64?, end: Int64?) throws -> Int
    /// The ids of the conversations of `kind` that `user` is a member of, ascending.
    func conversationIDs(of user: UserID, kind: ConversationKind) throws -> [ConversationID]
}

/// Messaging changes (part of `StoreWriter`).
public protocol MessagingWriter: MessagingReader {
    /// Throws `StoreError.conflict("friend_request")` if one is pending between the same two
    /// people in the same direction.
    func insertFriendRequest(_ request: StoredFriendRequest) throws
    func deleteFriendRequest(id: String) throws
    /// Deletes pending requests between the two, both directions.
    func deleteFriendRequests(between a: UserID, and b: UserID) throws
    /// Stores both sides of the friendship.
    func insertFriendship(_ a: UserID, _ b: UserID, conversation: ConversationID, at time: Int64) throws
    /// Removes both sides.
    func deleteFriendship(_ a: UserID, _ b: UserID) throws
    func insertBlock(by user: UserID, target: UserID, at time: Int64) throws
    func deleteBlock(by user: UserID, target: UserID) throws
    /// Inserts or replaces the swipe of `swipe.userID` on `swipe.targetID`.
    func saveSwipe(_ swipe: StoredSwipe) throws
    func deleteSwipe(by user: UserID, on target: UserID) throws
    /// Throws `StoreError.conflict("name")` when a group or room of that kind has the name
    /// (any case), `conflict("pair")` for a second 1:1 conversation of the same two people.
    func insertConversation(_ conversation: NewConversation) throws -> StoredConversation
    /// Replaces name, avatar, description and owner; `conflict("name")` as above.
    func updateConversation(_ conversation: StoredConversation) throws
    /// Inserts or replaces a membership.
    func saveMember(_ member: StoredMember) throws
    func deleteMember(of conversation: ConversationID, user: UserID) throws
    /// Moves the read marker forward (never back) and returns the marker now stored.
    func markRead(conversation: ConversationID, user: UserID, upTo seq: Int64) throws -> Int64
    /// Appends a message: the next sequence number of its conversation (gapless), a new
    /// server id, the conversation's last activity. Throws `conflict("client_id")` if the
    /// sender already used the client id.
    func appendMessage(_ message: NewMessage) throws -> Message
    /// The send path's one call: `appendMessage`, and with `markingReadBySender` the
    /// sender's read marker moved to the new message (nothing for a sender who is not a
    /// member). A store may do both in fewer statements than the two calls.
    ///
    /// `conflict("client_id")` leaves nothing changed, so the caller may carry on in the same
    /// write. After any other error part of it may be done: let that error end the write (its
    /// savepoint undoes everything).
    func appendMessage(_ message: NewMessage, markingReadBySender: Bool) throws -> Message
}

extension MessagingWriter {
    /// The two calls, for stores without a shorter way.
    public func appendMessage(_ message: NewMessage, markingReadBySender: Bool) throws -> Message {
        let appended = try appendMessage(message)
        if markingReadBySender, let sender = message.sender {
            _ = try markRead(conversation: message.conversationID, user: sender, upTo: appended.seq)
        }
        return appended
    }
}
