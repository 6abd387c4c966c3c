public import ParleyProtocol

// Sync: what a (re)connecting client missed, within the answer's byte budget.
extension ConversationService {
    /// What a (re)connecting client missed: every conversation, the messages after the
    /// client's last sequence in each (the newest ones when too many), pending requests. The
    /// answer stays within `maxAnswerBytes`: conversations are filled newest activity first,
    /// and one that does not fit whole gets the newest messages that do and is listed in
    /// `truncated`, like one with more missed messages than the per-conversation limit.
    public func sync(for user: UserID, _ parameters: SyncParameters) async throws(ProtocolError) -> SyncResult {
        let limit = context.rules.syncMessagesPerConversation
        let budget = context.rules.maxAnswerBytes
        let excerptLimit = context.rules.replyExcerptCharacters
        let now = context.clock()
        let result = try await context.gateway.read { reader in
            let summaries = try Self.summaries(for: user, reader: reader, now: now)
            var used = summaries.reduce(0) { $0 + EncodedSizeBound.summary($1) }
            var messages: [Message] = []
            var truncated: [ConversationID] = []
            var updated: [Message] = []
            for summary in summaries {
                let known = max(0, parameters.since[summary.id.description] ?? 0)
                guard summary.lastSeq > known else { continue }
                let from = summary.kind == .group ? try reader.member(of: summary.id, user: user)?.historyFrom ?? 0 : 0
                let raw = (summary.lastSeq - known > Int64(limit)
                    ? try reader.messages(in: summary.id, before: nil, limit: limit)
                    : try reader.messages(in: summary.id, after: known, limit: limit)).filter { $0.seq > from }
                // Action events stay (they carry the sequence); hidden messages do not.
                let missed = try Self.visible(raw, to: user, events: true, in: summary.id, reader: reader, excerptLimit: excerptLimit,
                                              from: from)
                let fitting = Self.newestFitting(missed, budget: budget, used: &used)
                if fitting.count < missed.count || summary.lastSeq - known > Int64(limit) { truncated.append(summary.id) }
                messages += fitting
                updated += try Self.targets(of: fitting, reader: reader, excerptLimit: excerptLimit, budget: budget, used: &used,
                                            from: from)
            }
            // What is left of the budget, and at least a quarter of it, for friend requests:
            // other people choose how many there are.
            let requests = try SocialService.requestPage(try reader.friendRequests(to: user), after: nil,
                                                         limit: self.context.rules.maxListPage,
                                                         budget: max(budget - used, budget / 4), reader: reader)
            return SyncResult(conversations: summaries, messages: messages, truncated: truncated, friendRequests: requests.items,
                              friendRequestsCursor: requests.nextCursor, totalUnread: summaries.reduce(0) { $0 + $1.unread },
                              updated: updated.isEmpty ? nil : updated)
        }
        // What sync handed over is delivered: the 1:1 senders' ticks move on.
        await markDelivered(result.messages, to: user, kinds: result.conversations)
        return result
    }

    /// The current state of the messages that action events among `messages` changed, each
    /// once, as far as they fit in what is left of `budget` (a client missing one pages
    /// history, which shows the state). Targets at or before `from` (the user's
    /// `historyStart`: an old member reacting to what a newcomer never saw) are left out.
    static func targets(of messages: ArraySlice<Message>, reader: StoreReader, excerptLimit: Int, budget: Int,
                        used: inout Int, from: Int64) throws -> [Message] {
        var ids: [Int64] = []
        for message in messages {
            guard let system = message.system, system.type.isMessageAction, let id = system.messageId.flatMap(Int64.init),
                  !ids.contains(id) else { continue }
            ids.append(id)
        }
        var found: [Message] = []
        for id in ids {
            guard let message = try reader.message(id: id), message.seq > from else { continue }
            let size = EncodedSizeBound.message(message) + 2 * excerptLimit
            guard used + size <= budget else { break }
            used += size
            found.append(message)
        }
        return try ReplyPreviews.filled(found, reader: reader, excerptLimit: excerptLimit, from: from)
    }

    /// The newest of `messages` (oldest first) whose encoded size fits in what is left of
    /// `budget`, oldest first, and at least the newest one when nothing else was taken yet
    /// (a single message is always smaller than the queue bound); adds their size to `used`.
    static func newestFitting(_ messages: [Message], budget: Int, used: inout Int) -> ArraySlice<Message> {
        var start = messages.endIndex
        while start > messages.startIndex {
            let size = EncodedSizeBound.message(messages[start - 1])
            guard used + size <= budget || used == 0 else { break }
            used += size
            start -= 1
        }
        return messages[start...]
    }
}
