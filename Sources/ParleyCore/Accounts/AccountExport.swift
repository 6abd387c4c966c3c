public import ParleyProtocol

/// Everything an account may take with it (`POST /v1/me/export`), read from the store: the
/// account, its friends, its groups, every message it can still read (its 1:1 and group
/// conversations, whole), what it published to its personal eventing nodes (a Jabber
/// client's avatar, nickname, bookmarks…), and which uploads of its own those messages and
/// its avatar use.
public struct AccountExport: Sendable {
    /// One friend: the profile and the 1:1 conversation.
    public struct FriendEntry: Codable, Sendable, Equatable {
        public var user: UserProfile
        public var conversationId: ConversationID
        public var since: Int64
    }

    /// One conversation's whole history.
    public struct ConversationHistory: Codable, Sendable, Equatable {
        public var conversationId: ConversationID
        public var kind: ConversationKind
        /// The group's name, or the other person's display name for a 1:1 conversation.
        public var title: String
        public var messages: [Message]
    }

    /// One personal eventing node (XEP-0163) with its settings and items, newest first; each
    /// item's payload is the publishing client's XML, as it sent it.
    public struct PersonalEventNode: Codable, Sendable, Equatable {
        public struct Item: Codable, Sendable, Equatable {
            public var id: String
            public var payload: String
        }

        public var node: String
        /// `open`, `presence` (friends) or `whitelist` (the owner alone).
        public var accessModel: String
        public var maxItems: Int
        public var items: [Item]
    }

    public var account: Account
    public var friends: [FriendEntry]
    public var groups: [GroupInfo]
    public var conversations: [ConversationHistory]
    /// The personal eventing nodes, by node name.
    public var personalEvents: [PersonalEventNode]
    /// Uploads owned by the user that its messages or avatar use (ids).
    public var mediaIDs: [String]

    /// Reads the export of `userID`, calling `progress` with the share done (0…1) after each
    /// conversation. Each read is one snapshot; messages are read in pages of `pageSize`,
    /// and at most `maxMessages` in all (a bound on the work and the file).
    public static func read(_ userID: UserID, from gateway: StoreGateway, pageSize: Int = 500, maxMessages: Int,
                            progress: @Sendable (Double) -> Void) async throws(ProtocolError) -> AccountExport {
        let (user, friendships, profiles, groupIDs, inbox) = try await gateway.read { reader in
            guard let user = try reader.user(id: userID) else { throw ProtocolError(.unauthorized, "the account no longer exists") }
            let friendships = try reader.friendships(of: userID)
            let profiles = try reader.users(ids: friendships.map(\.friendID)).map(\.profile)
            return (user, friendships, profiles, try reader.conversationIDs(of: userID, kind: .group),
                    try reader.inbox(of: userID).map(\.conversation))
        }
        let byID = Dictionary(profiles.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let friends = friendships.compactMap { friendship in
            byID[friendship.friendID].map { FriendEntry(user: $0, conversationId: friendship.conversationID, since: friendship.since) }
        }
        let groups = try await gateway.read { reader in
            try groupIDs.compactMap { id -> GroupInfo? in
                guard let group = try reader.conversation(id: id), let owner = group.ownerID else { return nil }
                return GroupInfo(id: id, name: group.name ?? "", avatar: group.avatar, description: group.description,
                                 ownerId: owner, memberCount: try reader.memberCount(of: id), createdAt: group.createdAt)
            }
        }
        var conversations: [ConversationHistory] = []
        var budget = maxMessages
        for (index, conversation) in inbox.enumerated() {
            var messages: [Message] = []
            // A group that hid its earlier history when the user joined: from their joining on.
            var after = try await gateway.read { reader in
                try ConversationAccess.historyStart(of: conversation.id, for: userID, reader: reader)
            }
            while budget > 0 {
                let limit = min(pageSize, budget)
                let page = try await gateway.read { [after] reader in try reader.messages(in: conversation.id, after: after, limit: limit) }
                messages += page
                budget -= page.count
                guard page.count == limit, let last = page.last else { break }
                after = last.seq
            }
            let other = [conversation.userA, conversation.userB].compactMap { $0 }.first { $0 != userID }
            let title = conversation.kind == .user
                ? other.map { byID[$0]?.displayName ?? "ID: \($0)" } ?? "" : conversation.name ?? ""
            conversations.append(ConversationHistory(conversationId: conversation.id, kind: conversation.kind, title: title,
                                                     messages: messages))
            progress(Double(index + 1) / Double(max(inbox.count, 1)))
        }
        var candidates = Set(conversations.flatMap(\.messages).filter { $0.sender == userID }.flatMap { [$0.image?.mediaId, $0.voice?.mediaId, $0.file?.mediaId].compactMap { $0 } })
        if let avatar = user.avatar, avatar.hasPrefix("/v1/media/") { candidates.insert(String(avatar.dropFirst("/v1/media/".count))) }
        let owned = try await gateway.read { [candidates] reader in
            try candidates.sorted().filter { try reader.media(id: $0)?.ownerID == userID }
        }
        let personalEvents = try await gateway.read { reader in
            try reader.pepNodes(of: userID).sorted { $0.key < $1.key }.map { node, settings in
                PersonalEventNode(node: node, accessModel: settings.accessModel.rawValue, maxItems: settings.maxItems,
                                  items: try reader.pepItems(of: userID, node: node).map { .init(id: $0.itemID, payload: $0.payload) })
            }
        }
        return AccountExport(account: user.account, friends: friends, groups: groups, conversations: conversations,
                             personalEvents: personalEvents, mediaIDs: owned)
    }
}
