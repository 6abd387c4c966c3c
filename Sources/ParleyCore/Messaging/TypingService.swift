public import ParleyProtocol
import ParleySync

/// Who is typing where (docs/protocol.md, "Receipts and typing"). Kept in memory only and
/// never stored: a `typing.start` is relayed once to the other participants' connections, a
/// refresh within the timeout only moves its deadline (so a group of 1,000 hears one event per
/// typist, not one per keystroke burst), and one not refreshed within `typingTimeout` is ended
/// by the server with `typing: false`. In a cluster the events go through the delivery like
/// any other; the expiry runs on the server that took the `typing.start`.
public final class TypingService: Sendable {
    private struct Key: Hashable, Sendable {
        let conversation: ConversationID
        let user: UserID
    }

    private struct Entry: Sendable {
        var deadline: ContinuousClock.Instant
        var recipients: [UserID]
        /// Tells one run of typing from the next one of the same user in the same place, so
        /// an expiry task of an earlier run never ends a later one.
        let run: UInt64
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var runs: UInt64 = 0
    }

    let context: MessagingContext
    private let limiter: SlidingWindowLimiter
    private let state = PThreadMutex(State())

    public init(context: MessagingContext) {
        self.context = context
        limiter = SlidingWindowLimiter(limit: max(1, context.rules.typingPerMinute), windowSeconds: 60)
    }

    /// The user is typing in a conversation they may post in: the others hear of it unless
    /// they already do (a refresh).
    public func start(by user: UserID, _ reference: ConversationReference) async throws(ProtocolError) {
        try checkRate(of: user)
        // nil: the user keeps their typing to themselves (privacy); the answer is the same.
        guard let recipients = try await recipients(of: user, in: reference.conversationId) else { return }
        let key = Key(conversation: reference.conversationId, user: user)
        let deadline = ContinuousClock.now.advanced(by: context.rules.typingTimeout)
        let run: UInt64? = state.withLock { state in
            if var entry = state.entries[key] {
                entry.deadline = deadline
                entry.recipients = recipients
                state.entries[key] = entry
                return nil
            }
            state.runs += 1
            state.entries[key] = Entry(deadline: deadline, recipients: recipients, run: state.runs)
            return state.runs
        }
        guard let run else { return }
        context.delivery.deliver(.typing(TypingNotice(conversationId: key.conversation, userId: user, typing: true)),
                                 to: recipients, excluding: nil)
        Task { [weak self] in await self?.expire(key, run: run) }
    }

    /// The user stopped typing; those who heard the start hear the stop. Stopping when not
    /// typing is no error (the server may have ended it already).
    public func stop(by user: UserID, _ reference: ConversationReference) throws(ProtocolError) {
        try checkRate(of: user)
        let key = Key(conversation: reference.conversationId, user: user)
        guard let entry = state.withLock({ $0.entries.removeValue(forKey: key) }) else { return }
        context.delivery.deliver(.typing(TypingNotice(conversationId: key.conversation, userId: user, typing: false)),
                                 to: entry.recipients, excluding: nil)
    }

    /// Whether `user` is typing in `conversation` now, as far as this server knows.
    public func isTyping(_ user: UserID, in conversation: ConversationID) -> Bool {
        state.withLock { $0.entries[Key(conversation: conversation, user: user)] != nil }
    }

    private func checkRate(of user: UserID) throws(ProtocolError) {
        if let wait = limiter.attempt(user.description, now: context.clock()) {
            throw ProtocolError(.rateLimited, "too many typing notices; try again later", retryAfterSeconds: wait)
        }
    }

    /// Waits out the deadline, moved on by every refresh, then ends this run of typing if it
    /// is still the current one. Bounded: each pass sleeps until the deadline it read, and a
    /// deadline only moves when the user refreshes (itself rate-limited).
    private func expire(_ key: Key, run: UInt64) async {
        while true {
            let outcome: (deadline: ContinuousClock.Instant?, ended: Entry?) = state.withLock { state in
                guard let entry = state.entries[key], entry.run == run else { return (nil, nil) }
                guard entry.deadline <= ContinuousClock.now else { return (entry.deadline, nil) }
                state.entries[key] = nil
                return (nil, entry)
            }
            if let ended = outcome.ended {
                context.delivery.deliver(.typing(TypingNotice(conversationId: key.conversation, userId: key.user, typing: false)),
                                         to: ended.recipients, excluding: nil)
                return
            }
            guard let deadline = outcome.deadline else { return }
            try? await Task.sleep(until: deadline, clock: .continuous)
        }
    }

    /// Who sees the user typing (nil when they turned typing off): in a 1:1 conversation the other person (none when either
    /// blocked the other: posting is refused then), in a group the other members but those
    /// the typist blocked, in a room its other occupants.
    private func recipients(of user: UserID, in id: ConversationID) async throws(ProtocolError) -> [UserID]? {
        let rooms = context.rooms
        let now = context.clock()
        return try await context.gateway.read { reader -> [UserID]? in
            let conversation = try ConversationAccess.postable(id, by: user, reader: reader, rooms: rooms, now: now)
            guard try reader.privacy(of: user).typing else { return nil }
            switch conversation.kind {
            case .room:
                return rooms.occupants(of: id).filter { $0 != user }
            case .user:
                guard let a = conversation.userA, let b = conversation.userB else { return [] }
                return [a == user ? b : a]
            case .group:
                let blocked = Set(try reader.blockedUsers(by: user))
                return try reader.memberIDs(of: id).filter { $0 != user && !blocked.contains($0) }
            }
        }
    }
}
