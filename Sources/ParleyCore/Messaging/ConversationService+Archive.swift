public import ParleyProtocol

/// What part of the message archive to read (`ConversationService.archive`): the archive is
/// every message but system notices, ordered by creation time, then id (`ArchivePosition`);
/// markers are message ids.
public struct ArchiveQuery: Sendable, Equatable {
    public enum Scope: Sendable, Equatable {
        /// Every 1:1 conversation of the user, together.
        case direct
        /// One conversation the user may read (1:1, group, or a room they are in).
        case conversation(ConversationID)
    }

    public var scope: Scope
    /// Creation times, milliseconds, both inclusive.
    public var start: Int64?
    public var end: Int64?
    /// Only messages after (before) the message with this id.
    public var after: String?
    public var before: String?
    /// Whether the page is taken from the newest end of what is left (paging backwards);
    /// otherwise from the oldest (forwards).
    public var fromEnd: Bool
    /// Messages wanted; nil: the most a page may hold. 0 asks for the count alone.
    public var limit: Int?
    /// Only messages whose text holds every word of this (`message.search`'s rules); nil:
    /// no text filter.
    public var text: String?

    public init(scope: Scope, start: Int64? = nil, end: Int64? = nil, after: String? = nil, before: String? = nil,
                fromEnd: Bool = false, limit: Int? = nil) {
        self.scope = scope
        self.start = start
        self.end = end
        self.after = after
        self.before = before
        self.fromEnd = fromEnd
        self.limit = limit
    }
}

/// A page of the archive.
public struct ArchivePage: Sendable {
    /// Oldest first.
    public var messages: [Message]
    /// Messages the query matches in all (its scope and times, whatever the page).
    public var count: Int
    /// Whether no further page exists in the direction of paging: nothing older before the
    /// first message when paging backwards, nothing newer after the last when forwards.
    public var complete: Bool
    /// For each 1:1 conversation of the page, the other person.
    public var peers: [ConversationID: UserID]
    /// The profiles of the senders and peers of the page.
    public var users: [UserID: UserProfile]
}

extension ConversationService {
    /// A page of the user's message archive (for gateways: XMPP's XEP-0313). Reading
    /// follows the rules of history: the conversations the user may read, and the page
    /// within the answer budget (a page cut short is not `complete`).
    public func archive(for user: UserID, _ query: ArchiveQuery) async throws(ProtocolError) -> ArchivePage {
        let rules = context.rules
        let limit = min(max(query.limit ?? rules.maxArchivePage, 0), rules.maxArchivePage)
        if let start = query.start, let end = query.end, start > end {
            throw ProtocolError(.invalidField, "the start is after the end", field: "start")
        }
        if let text = query.text { return try await archiveSearch(for: user, query, text: text, limit: limit) }
        let rooms = context.rooms
        return try await context.gateway.read { reader in
            let conversations: [ConversationID]
            var start = query.start
            // The sequence a newcomer to a group that hides earlier history sees from.
            var from: Int64 = 0
            switch query.scope {
            case .direct:
                conversations = try reader.conversationIDs(of: user, kind: .user)
            case .conversation(let id):
                let conversation = try ConversationAccess.readable(id, by: user, reader: reader, rooms: rooms)
                conversations = [id]
                // A member who joined a group that hides earlier history finds nothing from
                // before their joining here either.
                if conversation.kind == .group, let member = try reader.member(of: id, user: user), member.historyFrom > 0 {
                    start = max(start ?? member.joinedAt, member.joinedAt)
                    from = member.historyFrom
                }
            }
            // A marker must be a message of this archive, or the page would be about
            // something the user cannot see.
            func position(_ marker: String?) throws -> ArchivePosition? {
                guard let marker else { return nil }
                guard let id = Int64(marker), let message = try reader.message(id: id), message.kind != .system,
                      conversations.contains(message.conversationId), message.seq > from else {
                    throw ProtocolError(.notFound, "no message '\(marker)' in this archive")
                }
                return ArchivePosition(message)
            }
            let range = ArchiveRange(start: start, end: query.end, after: try position(query.after),
                                     before: try position(query.before), newest: query.fromEnd)
            // The time bound leaves out what came before the join; a message stored in the same
            // millisecond as the join but before it in the sequence is left out here.
            let fetched = try reader.archivedMessages(in: conversations, range, limit: limit + 1).filter { $0.seq > from }
            let page = query.fromEnd ? Array(fetched.suffix(limit)) : Array(fetched.prefix(limit))
            var used = 0
            let fitting = query.fromEnd ? Array(Self.newestFitting(page, budget: rules.maxAnswerBytes, used: &used))
                                        : Array(Self.newestFitting(page.reversed(), budget: rules.maxAnswerBytes, used: &used).reversed())
            var peers: [ConversationID: UserID] = [:]
            for id in Set(fitting.map(\.conversationId)) {
                if let conversation = try reader.conversation(id: id), conversation.kind == .user,
                   let a = conversation.userA, let b = conversation.userB {
                    peers[id] = a == user ? b : a
                }
            }
            let people = Set(fitting.compactMap(\.sender)).union(peers.values)
            let users = Dictionary(try MessagingContext.profiles(Array(people), reader: reader).map { ($0.id, $0) },
                                   uniquingKeysWith: { first, _ in first })
            return ArchivePage(messages: fitting, count: try reader.archivedMessageCount(in: conversations, start: start, end: query.end),
                               complete: fetched.count <= limit && fitting.count == page.count, peers: peers, users: users)
        }
    }
}
