public import Foundation

/// Everything the server pushes to a client of its own accord (docs/protocol.md, "Events"),
/// each with its typed payload: the core says which, the gateway encodes it once for every
/// native recipient, and clients decode it back into the same cases.
public enum ServerEvent: Sendable, Equatable {
    /// A message in one of the user's conversations (not to the connection that sent it).
    case messageNew(Message)
    /// The user's read marker moved on another of their connections.
    case conversationRead(ReadState)
    /// Someone asked the user to be friends.
    case friendRequest(FriendRequest)
    /// A friendship began.
    case friendAdded(Friend)
    /// A friendship ended.
    case friendRemoved(UserReference)
    /// A friend came online or went offline.
    case presence(Presence)
    /// The user's own account changed on another connection.
    case meUpdated(Account)
    /// An earlier message changed (edit, recall, reaction, pin): the action event with its
    /// own `seq`, and the message as it is now.
    case messageUpdated(MessageUpdate)
    /// The user hid a message for themselves on another connection.
    case messageHidden(MessageReference)
    /// Someone else started or stopped typing in one of the user's conversations.
    case typing(TypingNotice)
    /// The other person of a 1:1 conversation read up to a sequence number.
    case conversationReceipt(ReceiptState)
    /// The user muted or unmuted a conversation on another connection.
    case conversationMuted(MuteState)
    /// An admin answered the user's request to join an `approval` group.
    case groupRequestDecided(JoinRequestState)
    /// A member invited the user into a group.
    case groupInvited(GroupInvitation)
    /// The user was put out of a room (and barred, when banned).
    case roomKicked(RoomKick)
    /// A group the user was in was disbanded (by its owner or an administrator): it leaves
    /// the user's lists and its history is no longer readable.
    case groupDisbanded(ConversationReference)
    /// One of the user's own Jabber clients came, changed, or went.
    case resourcePresence(ResourcePresence)

    /// The `event` member of the frame.
    public var name: String {
        switch self {
        case .messageNew: "message.new"
        case .conversationRead: "conversation.read"
        case .friendRequest: "friend.request"
        case .friendAdded: "friend.added"
        case .friendRemoved: "friend.removed"
        case .presence: "presence"
        case .meUpdated: "me.updated"
        case .messageUpdated: "message.updated"
        case .messageHidden: "message.hidden"
        case .typing: "typing"
        case .conversationReceipt: "conversation.receipt"
        case .conversationMuted: "conversation.muted"
        case .groupRequestDecided: "group.request.decided"
        case .groupInvited: "group.invited"
        case .roomKicked: "room.kicked"
        case .groupDisbanded: "group.disbanded"
        case .resourcePresence: "presence.resource"
        }
    }

    /// The `data` member as JSON; nil only if a payload cannot be encoded.
    public func dataJSON() -> [UInt8]? {
        switch self {
        // The two events of a 1:1 send are written by hand, without a dynamic cast. Not
        // `MessageJSON.json(message) ?? …`: the right side's closure took a copy of the
        // message, field by field, even when it was not called (docs/benchmarks.md, (ap)).
        case .messageNew(let message):
            if let json = MessageJSON.json(message) { json } else { WireJSON.encode(message) }
        case .conversationRead(let state): WireJSON.encode(state)
        case .friendRequest(let request): WireJSON.encode(request)
        case .friendAdded(let friend): WireJSON.encode(friend)
        case .friendRemoved(let reference): WireJSON.encode(reference)
        case .presence(let presence): WireJSON.encode(presence)
        case .meUpdated(let account): WireJSON.encode(account)
        case .messageUpdated(let update): WireJSON.encode(update)
        case .messageHidden(let reference): WireJSON.encode(reference)
        case .typing(let notice): WireJSON.encode(notice)
        case .conversationReceipt(let receipt): receipt.json()
        case .conversationMuted(let state): WireJSON.encode(state)
        case .groupRequestDecided(let state): WireJSON.encode(state)
        case .groupInvited(let invitation): WireJSON.encode(invitation)
        case .roomKicked(let kick): WireJSON.encode(kick)
        case .groupDisbanded(let reference): WireJSON.encode(reference)
        case .resourcePresence(let presence): WireJSON.encode(presence)
        }
    }

    /// The event named `name` from its `data` JSON; nil for a name this build does not know
    /// (within version 1 new events are additive: a client ignores them). Throws when the
    /// JSON is not that event's payload.
    public static func decode(name: String, data: Data) throws -> ServerEvent? {
        try decode(name: name, Payload(bytes: data, range: nil, bare: true))
    }

    /// The event named `name` whose `data` lies at `range` of a whole frame (as `FrameReader`
    /// found it).
    public static func decode(name: String, in frame: Data, _ range: Range<Int>?) throws -> ServerEvent? {
        try decode(name: name, Payload(bytes: frame, range: range, bare: false))
    }

    private static func decode(name: String, _ payload: Payload) throws -> ServerEvent? {
        switch name {
        case "message.new": return .messageNew(try payload.read(Message.self))
        case "conversation.read": return .conversationRead(try payload.read(ReadState.self))
        case "friend.request": return .friendRequest(try payload.read(FriendRequest.self))
        case "friend.added": return .friendAdded(try payload.read(Friend.self))
        case "friend.removed": return .friendRemoved(try payload.read(UserReference.self))
        case "presence": return .presence(try payload.read(Presence.self))
        case "me.updated": return .meUpdated(try payload.read(Account.self))
        case "message.updated": return .messageUpdated(try payload.read(MessageUpdate.self))
        case "message.hidden": return .messageHidden(try payload.read(MessageReference.self))
        case "typing": return .typing(try payload.read(TypingNotice.self))
        case "conversation.receipt": return .conversationReceipt(try payload.read(ReceiptState.self))
        case "conversation.muted": return .conversationMuted(try payload.read(MuteState.self))
        case "group.request.decided": return .groupRequestDecided(try payload.read(JoinRequestState.self))
        case "group.invited": return .groupInvited(try payload.read(GroupInvitation.self))
        case "room.kicked": return .roomKicked(try payload.read(RoomKick.self))
        case "group.disbanded": return .groupDisbanded(try payload.read(ConversationReference.self))
        case "presence.resource": return .resourcePresence(try payload.read(ResourcePresence.self))
        default: return nil
        }
    }

    /// Where an event's `data` is: bare JSON, or a range of a frame.
    private struct Payload {
        let bytes: Data
        let range: Range<Int>?
        let bare: Bool

        func read<T: Decodable>(_ type: T.Type) throws -> T {
            bare ? try JSONDecoder().decode(type, from: bytes) : try FrameReader.data(type, in: bytes, range)
        }
    }
}
