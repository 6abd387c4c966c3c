public import Observation
public import ParleyProtocol

/// The Contacts page (seed 000): friends, friend requests, groups and rooms in sections, and
/// the "+" menu's actions (add friend, create or join a group, create or enter a room), each
/// with a "processing…" state and a clear error.
@MainActor
@Observable
public final class ContactsViewModel {
    /// One person, group or room in a section.
    public struct Contact: Identifiable, Equatable, Sendable {
        /// The user's id, or the conversation's for groups and rooms.
        public var id: String
        /// The display name (seed 000's rule), or the group's or room's name.
        public var name: String
        /// The signature, or the group's or room's description.
        public var info: String?
        /// The avatar URL, if any.
        public var avatar: String?
        /// For friends: online now.
        public var isOnline: Bool
        /// The conversation to open.
        public var conversationId: ConversationID
        /// For friends: the devices and Jabber clients they are online on, each with its show
        /// and status (native devices first).
        public var resources: [ResourcePresence] = []
    }

    /// The "+" menu's actions.
    public enum Action: Sendable, Equatable {
        /// Ask someone to be friends, by username.
        case addFriend(username: String)
        /// Create a group with this name (you own it).
        case createGroup(name: String)
        /// Join a group by its name.
        case joinGroup(name: String)
        /// Create a room with this name (you are in it).
        case createRoom(name: String)
        /// Enter a room by its name.
        case enterRoom(name: String)
    }

    /// Friends, by display name.
    public private(set) var friends: [Contact] = []
    /// Requests waiting for the user's answer, newest first.
    public private(set) var incomingRequests: [FriendRequest] = []
    /// Requests the user sent that wait for the other side.
    public private(set) var outgoingRequests: [FriendRequest] = []
    /// Groups the user belongs to.
    public private(set) var groups: [Contact] = []
    /// Rooms the user is in.
    public private(set) var rooms: [Contact] = []
    /// The action in progress ("processing…"), if any.
    public private(set) var processing: Action?
    /// What went wrong last, for an alert.
    public private(set) var lastError: ParleyError?
    /// A short confirmation of the last action ("Request sent").
    public private(set) var lastResult: String?

    @ObservationIgnored private let client: ParleyClient
    @ObservationIgnored private let language: ParleyLanguage
    @ObservationIgnored private var observation: ObservationTasks?

    /// Contacts of `client`; call `start()` when the page appears.
    public init(client: ParleyClient, language: ParleyLanguage = .preferred) {
        self.client = client
        self.language = language
    }

    /// Shows the cache, follows the client, and refreshes from the server when online.
    public func start() async {
        if observation == nil {
            let events = client.events()
            observation = ObservationTasks([Task { [weak self] in
                for await event in events {
                    guard let self else { return }
                    switch event {
                    case .friendRequest, .friendAdded, .friendRemoved, .conversationsChanged, .signedOut, .resources:
                        await self.reload()
                    case .presence(let update):
                        // Someone came online: ask on which devices.
                        if update.online { _ = try? await self.client.fetchResources(of: update.userId) }
                        await self.reload()
                    default:
                        break
                    }
                }
            }])
        }
        await reload()
        if client.connectionState.isOnline {
            _ = try? await client.friends()
            _ = try? await client.friendRequests()
            await reload()
            await fetchResources()
        }
    }

    /// Asks on which resources each online friend is (one request per online friend).
    public func fetchResources() async {
        for friend in friends where friend.isOnline {
            guard let id = UserID(string: friend.id) else { continue }
            _ = try? await client.fetchResources(of: id)
        }
        await reload()
    }

    /// Stops following the client.
    public func stop() {
        observation = nil
    }

    /// Rebuilds the sections from the cache.
    public func reload() async {
        let cachedFriends = (try? await client.cachedFriends()) ?? []
        var online: [UserID: Bool] = [:]
        var resources: [UserID: [ResourcePresence]] = [:]
        for friend in cachedFriends {
            online[friend.user.id] = await client.isOnline(friend.user.id) || friend.online
            resources[friend.user.id] = await client.resources(of: friend.user.id)
        }
        friends = cachedFriends.map { friend in
            Contact(id: friend.user.id.description, name: friend.user.displayName, info: friend.user.signature, avatar: friend.user.avatar,
                    isOnline: online[friend.user.id] ?? false, conversationId: friend.conversationId,
                    resources: resources[friend.user.id] ?? [])
        }.sorted { $0.name.localizedLowercase < $1.name.localizedLowercase }
        incomingRequests = (try? await client.cachedFriendRequests(incoming: true)) ?? []
        outgoingRequests = (try? await client.cachedFriendRequests(incoming: false)) ?? []
        let summaries = (try? await client.cachedConversations()) ?? []
        var groupRows: [Contact] = []
        for summary in summaries where summary.kind == .group {
            let info = try? await client.cachedGroup(summary.id)
            groupRows.append(Contact(id: summary.id.description, name: summary.name ?? info?.name ?? "#\(summary.id)", info: info?.description,
                                     avatar: summary.avatar, isOnline: false, conversationId: summary.id))
        }
        groups = groupRows.sorted { $0.name.localizedLowercase < $1.name.localizedLowercase }
        rooms = ((try? await client.cachedRooms()) ?? []).map { room in
            Contact(id: room.id.description, name: room.name, info: room.description, avatar: room.avatar, isOnline: false, conversationId: room.id)
        }
    }

    /// Runs a "+" menu action; returns the conversation to open (a group or room), if any.
    @discardableResult
    public func perform(_ action: Action) async -> ConversationID? {
        guard processing == nil else { return nil }
        processing = action
        lastError = nil
        lastResult = nil
        defer { processing = nil }
        do {
            var opened: ConversationID?
            switch action {
            case .addFriend(let username):
                let outcome = try await client.requestFriend(username: username.trimmed)
                if let friend = outcome.friend {
                    opened = friend.conversationId
                    lastResult = language.pick("You are now friends with \(friend.user.displayName)", "你和 \(friend.user.displayName) 已经是好友了")
                } else {
                    lastResult = language.pick("Friend request sent", "好友请求已发送")
                }
            case .createGroup(let name):
                let group = try await client.createGroup(name: name.trimmed)
                opened = group.id
                lastResult = language.pick("Group \(language.quoted(group.name)) created", "已创建群聊" + language.quoted(group.name))
            case .joinGroup(let name):
                let group = try await client.joinGroup(name: name.trimmed)
                opened = group.id
                lastResult = language.pick("Joined ", "已加入群聊") + language.quoted(group.name)
            case .createRoom(let name):
                let room = try await client.createRoom(name: name.trimmed).room
                opened = room.id
                lastResult = language.pick("Room \(language.quoted(room.name)) created", "已创建聊天室" + language.quoted(room.name))
            case .enterRoom(let name):
                let room = try await client.enterRoom(name: name.trimmed).room
                opened = room.id
                lastResult = language.pick("Entered ", "已进入聊天室") + language.quoted(room.name)
            }
            await reload()
            return opened
        } catch {
            lastError = error
            return nil
        }
    }

    /// Accepts a friend request; returns the new 1:1 conversation.
    @discardableResult
    public func accept(_ request: FriendRequest) async -> ConversationID? {
        do {
            let friend = try await client.acceptFriendRequest(request.id)
            await reload()
            return friend.conversationId
        } catch {
            lastError = error
            return nil
        }
    }

    /// Declines a friend request (the sender is not told).
    public func decline(_ request: FriendRequest) async {
        do {
            try await client.declineFriendRequest(request.id)
            await reload()
        } catch {
            lastError = error
        }
    }

    /// The "processing…" text for the action in progress.
    public var processingText: String? {
        processing.map { _ in language.pick("Processing…", "处理中…") }
    }
}

extension String {
    /// Without white space at the ends.
    var trimmed: String {
        var text = Substring(self)
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return String(text)
    }
}
