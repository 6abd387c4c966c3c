import ParleyProtocol
import ParleySQL

// The cache: what the server last said, so that an app opens with its data before the
// network answers.
extension LocalStore {
    // MARK: Profiles

    func storeProfiles(_ profiles: [UserProfile]) throws {
        for profile in profiles {
            try connection.run("INSERT INTO users (id, json) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET json = excluded.json",
                               profile.id.rawValue, try encode(profile))
        }
    }

    func setProfiles(_ profiles: [UserProfile]) throws(ParleyError) {
        try transaction { try storeProfiles(profiles) }
    }

    func profile(_ id: UserID) throws(ParleyError) -> UserProfile? {
        try guarded { try connection.queryFirst("SELECT json FROM users WHERE id = ?", id.rawValue) { try decode(UserProfile.self, try $0.string(0)) } }
    }

    // MARK: Conversations

    func storeConversation(_ summary: ConversationSummary) throws {
        try connection.run("""
            INSERT INTO conversations (id, kind, last_activity, json) VALUES (?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, last_activity = excluded.last_activity, json = excluded.json
            """, summary.id.rawValue, summary.kind.rawValue, summary.lastActivityAt, try encode(summary))
        if let peer = summary.peer { try storeProfiles([peer]) }
    }

    func setConversation(_ summary: ConversationSummary) throws(ParleyError) {
        try transaction { try storeConversation(summary) }
    }

    /// Replaces the 1:1 and group rows with `summaries` (the server's whole list); rooms are
    /// kept unless `includingRooms`, since `sync` does not list them.
    func replaceConversations(_ summaries: [ConversationSummary], includingRooms: Bool) throws {
        try connection.run(includingRooms ? "DELETE FROM conversations" : "DELETE FROM conversations WHERE kind <> 'room'")
        for summary in summaries { try storeConversation(summary) }
    }

    func conversations() throws(ParleyError) -> [ConversationSummary] {
        try guarded {
            try connection.query("SELECT json FROM conversations ORDER BY last_activity DESC, id DESC") {
                try decode(ConversationSummary.self, try $0.string(0))
            }
        }
    }

    func conversation(_ id: ConversationID) throws(ParleyError) -> ConversationSummary? {
        try guarded {
            try connection.queryFirst("SELECT json FROM conversations WHERE id = ?", id.rawValue) {
                try decode(ConversationSummary.self, try $0.string(0))
            }
        }
    }

    func removeConversation(_ id: ConversationID) throws(ParleyError) {
        try guarded { try connection.run("DELETE FROM conversations WHERE id = ?", id.rawValue) }
    }

    // MARK: Messages

    /// Stores `message` unless the cache has it already (same conversation and seq); true
    /// when it was new. Also moves the conversation's summary forward, if the cache has one.
    func insertMessage(_ message: Message, me: UserID?) throws -> Bool {
        let inserted = try connection.run("INSERT OR IGNORE INTO messages (conversation_id, seq, json) VALUES (?, ?, ?)",
                                          message.conversationId.rawValue, message.seq, try encode(message))
        guard inserted > 0 else { return false }
        if let json = try connection.queryFirst("SELECT json FROM conversations WHERE id = ?", message.conversationId.rawValue,
                                                row: { try $0.string(0) }) {
            var summary = try decode(ConversationSummary.self, json)
            // Newer than the summary: the server's count did not include it yet.
            let isNewer = message.seq > summary.lastSeq
            if message.seq >= summary.lastSeq {
                summary.lastSeq = message.seq
                summary.lastMessage = message
                summary.lastActivityAt = max(summary.lastActivityAt, message.createdAt)
            }
            // The server counts a user's own messages as read, and rooms have no unread count.
            if let me, message.sender == me { summary.readSeq = max(summary.readSeq, message.seq) }
            if summary.kind == .room { summary.readSeq = summary.lastSeq }
            if summary.readSeq >= summary.lastSeq {
                summary.unread = 0
            } else if isNewer && message.countsAsUnread(for: me) {
                summary.unread += 1
            }
            // A new unread message that mentions the reader raises the "@" count.
            if let me, message.mentions(me), message.seq > summary.readSeq { summary.mentions = (summary.mentions ?? 0) + 1 }
            try storeConversation(summary)
        }
        return true
    }

    /// Up to `limit` cached messages of a conversation before `seq` (or the newest), oldest
    /// first, stopping at the first gap so that a page never hides missing messages.
    func messages(in conversation: ConversationID, before seq: Int64?, limit: Int) throws(ParleyError) -> [Message] {
        let newestFirst: [Message] = try guarded {
            try connection.query("""
                SELECT json FROM messages WHERE conversation_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?
                """, conversation.rawValue, seq ?? Int64.max, limit) { try decode(Message.self, try $0.string(0)) }
        }
        var contiguous: [Message] = []
        for message in newestFirst {
            if let previous = contiguous.last, previous.seq != message.seq + 1 { break }
            contiguous.append(message)
        }
        return contiguous.reversed()
    }

    /// The newest cached seq of every conversation: what `sync` sends as `since`.
    func lastSeqs() throws(ParleyError) -> [ConversationID: Int64] {
        let rows: [(Int64, Int64)] = try guarded {
            try connection.query("SELECT conversation_id, MAX(seq) FROM messages GROUP BY conversation_id") { (try $0.int64(0), try $0.int64(1)) }
        }
        return Dictionary(rows.map { (ConversationID($0.0), $0.1) }, uniquingKeysWith: max)
    }

    /// The newest cached seq of one conversation (0 when none).
    func lastSeq(of conversation: ConversationID) throws(ParleyError) -> Int64 {
        try guarded {
            try connection.queryFirst("SELECT MAX(seq) FROM messages WHERE conversation_id = ?", conversation.rawValue) {
                try $0.column(0, as: Int64?.self)
            } ?? 0
        } ?? 0
    }

    /// Keeps the newest `keep` messages of each conversation: the cache is for opening fast,
    /// not an archive (history pages come from the server).
    func trimMessages(keep: Int) throws {
        try connection.run("""
            DELETE FROM messages WHERE (conversation_id, seq) IN (
                SELECT conversation_id, seq FROM (
                    SELECT conversation_id, seq, ROW_NUMBER() OVER (PARTITION BY conversation_id ORDER BY seq DESC) AS position
                    FROM messages)
                WHERE position > ?)
            """, keep)
    }

    // MARK: Contacts

    func replaceFriends(_ friends: [Friend]) throws {
        try connection.run("DELETE FROM friends")
        for friend in friends { try storeFriend(friend) }
    }

    func storeFriend(_ friend: Friend) throws {
        try connection.run("""
            INSERT INTO friends (user_id, since, json) VALUES (?, ?, ?)
            ON CONFLICT (user_id) DO UPDATE SET since = excluded.since, json = excluded.json
            """, friend.user.id.rawValue, friend.since, try encode(friend))
        try storeProfiles([friend.user])
    }

    func setFriend(_ friend: Friend) throws(ParleyError) {
        try transaction { try storeFriend(friend) }
    }

    func removeFriend(_ id: UserID) throws(ParleyError) {
        try guarded { try connection.run("DELETE FROM friends WHERE user_id = ?", id.rawValue) }
    }

    func friends() throws(ParleyError) -> [Friend] {
        try guarded { try connection.query("SELECT json FROM friends ORDER BY since, user_id") { try decode(Friend.self, try $0.string(0)) } }
    }

    func friend(_ id: UserID) throws(ParleyError) -> Friend? {
        try guarded { try connection.queryFirst("SELECT json FROM friends WHERE user_id = ?", id.rawValue) { try decode(Friend.self, try $0.string(0)) } }
    }

    /// Replaces the requests of one direction with the server's list.
    func replaceFriendRequests(_ requests: [FriendRequest], incoming: Bool) throws {
        try connection.run("DELETE FROM friend_requests WHERE incoming = ?", incoming)
        for request in requests { try storeFriendRequest(request, incoming: incoming) }
    }

    func storeFriendRequest(_ request: FriendRequest, incoming: Bool) throws {
        try connection.run("""
            INSERT INTO friend_requests (id, incoming, created_at, json) VALUES (?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET json = excluded.json
            """, request.id, incoming, request.createdAt, try encode(request))
        try storeProfiles([request.from, request.to])
    }

    func setFriendRequest(_ request: FriendRequest, incoming: Bool) throws(ParleyError) {
        try transaction { try storeFriendRequest(request, incoming: incoming) }
    }

    /// Drops requests by id, or every request between the user and `user`.
    func removeFriendRequests(id: String? = nil, involving user: UserID? = nil) throws(ParleyError) {
        try guarded {
            if let id { try connection.run("DELETE FROM friend_requests WHERE id = ?", id) }
            guard let user else { return }
            let all = try connection.query("SELECT id, json FROM friend_requests") { (try $0.string(0), try decode(FriendRequest.self, try $0.string(1))) }
            for (id, request) in all where request.from.id == user || request.to.id == user {
                try connection.run("DELETE FROM friend_requests WHERE id = ?", id)
            }
        }
    }

    func friendRequests(incoming: Bool) throws(ParleyError) -> [FriendRequest] {
        try guarded {
            try connection.query("SELECT json FROM friend_requests WHERE incoming = ? ORDER BY created_at DESC", incoming) {
                try decode(FriendRequest.self, try $0.string(0))
            }
        }
    }

    // MARK: Groups and rooms

    func setGroup(_ group: GroupInfo) throws(ParleyError) {
        try guarded {
            try connection.run("INSERT INTO groups_info (conversation_id, json) VALUES (?, ?) ON CONFLICT (conversation_id) DO UPDATE SET json = excluded.json",
                               group.id.rawValue, try encode(group))
        }
    }

    func group(_ id: ConversationID) throws(ParleyError) -> GroupInfo? {
        try guarded {
            try connection.queryFirst("SELECT json FROM groups_info WHERE conversation_id = ?", id.rawValue) { try decode(GroupInfo.self, try $0.string(0)) }
        }
    }

    func removeGroup(_ id: ConversationID) throws(ParleyError) {
        try guarded {
            try connection.run("DELETE FROM groups_info WHERE conversation_id = ?", id.rawValue)
            try connection.run("DELETE FROM conversations WHERE id = ?", id.rawValue)
        }
    }

    /// Records that the user is in `room`, with a sessions-list row for it.
    func setRoom(_ room: RoomInfo, lastMessage: Message?) throws(ParleyError) {
        try transaction {
            try connection.run("""
                INSERT INTO rooms (conversation_id, name, json) VALUES (?, ?, ?)
                ON CONFLICT (conversation_id) DO UPDATE SET name = excluded.name, json = excluded.json
                """, room.id.rawValue, room.name, try encode(room))
            let existing = try connection.queryFirst("SELECT json FROM conversations WHERE id = ?", room.id.rawValue) {
                try decode(ConversationSummary.self, try $0.string(0))
            }
            let last = [existing?.lastMessage, lastMessage].compactMap { $0 }.max { $0.seq < $1.seq }
            let lastSeq = last?.seq ?? 0
            try storeConversation(ConversationSummary(
                id: room.id, kind: .room, name: room.name, avatar: room.avatar, lastMessage: last, lastSeq: lastSeq,
                readSeq: lastSeq, unread: 0, lastActivityAt: max(existing?.lastActivityAt ?? 0, last?.createdAt ?? room.createdAt)))
        }
    }

    func rooms() throws(ParleyError) -> [RoomInfo] {
        try guarded { try connection.query("SELECT json FROM rooms ORDER BY name") { try decode(RoomInfo.self, try $0.string(0)) } }
    }

    func removeRoom(_ id: ConversationID) throws(ParleyError) {
        try transaction {
            try connection.run("DELETE FROM rooms WHERE conversation_id = ?", id.rawValue)
            try connection.run("DELETE FROM conversations WHERE id = ?", id.rawValue)
        }
    }

    // MARK: Signed-in devices

    func devices() throws(ParleyError) -> [SessionInfo] {
        guard let json = try meta("devices") else { return [] }
        return try guarded { try decode([SessionInfo].self, json) }
    }

    func setDevices(_ devices: [SessionInfo]) throws(ParleyError) {
        let json: String = try guarded { try encode(devices) }
        try setMeta("devices", json)
    }
}
