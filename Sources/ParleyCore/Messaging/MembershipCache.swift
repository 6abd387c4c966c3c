import ParleyProtocol
import ParleySync

/// The member lists of 1:1 and group conversations, kept in memory so that sending a message
/// does not read every member from the database (a group of 1,000 is 1,000 rows per message).
///
/// Correctness rests on three rules:
/// - A list is *looked up* inside a write (the writer thread sees every change in order) and
///   *stored* only after that write has committed, together with the conversation's version
///   read inside the write.
/// - Every change of membership calls `invalidate` inside its write: the entry goes and the
///   version moves on, so a list read before the change can never be stored after it.
/// - A write that fails stores nothing; an invalidation in a write that fails only costs a miss.
///
/// Who may post is still decided by `ConversationAccess`; this type only answers "who are the
/// members" faster. Bounded: past `capacity` conversations an arbitrary half is dropped.
public final class MembershipCache: Sendable {
    /// A conversation's members as read inside a write, and the version they belong to.
    struct Snapshot: Sendable {
        let conversation: ConversationID
        let members: Members
        let version: UInt64
        /// Whether it came from the cache (nothing to store afterwards).
        let cached: Bool
    }

    /// A member list, with a set for membership checks.
    final class Members: Sendable {
        let ids: [UserID]
        let set: Set<UserID>
        init(_ ids: [UserID]) {
            self.ids = ids
            set = Set(ids)
        }
    }

    private struct State {
        var lists: [ConversationID: Members] = [:]
        /// Bumped by every invalidation; absent means 0.
        var versions: [ConversationID: UInt64] = [:]
    }

    private let state = PThreadMutex(State())
    /// Most conversations kept.
    let capacity: Int

    /// A cache of at most `capacity` member lists; 0 keeps none (every send reads the store).
    public init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// The members of `conversation`: from the cache, or read with `writer`. Call inside a write.
    func members(of conversation: ConversationID, writer: StoreReader) throws -> Snapshot {
        let (cached, version) = state.withLock { ($0.lists[conversation], $0.versions[conversation] ?? 0) }
        if let cached { return Snapshot(conversation: conversation, members: cached, version: version, cached: true) }
        return Snapshot(conversation: conversation, members: Members(try writer.memberIDs(of: conversation)), version: version, cached: false)
    }

    /// Keeps a list read inside a write that has now committed, unless membership changed since.
    func store(_ snapshot: Snapshot) {
        guard !snapshot.cached, capacity > 0 else { return }
        state.withLock { state in
            guard (state.versions[snapshot.conversation] ?? 0) == snapshot.version else { return }
            if state.lists.count >= capacity {
                // Crude but bounded; conversations that are busy come back on their next message.
                for key in state.lists.keys.prefix(state.lists.count / 2 + 1) { state.lists[key] = nil }
            }
            state.lists[snapshot.conversation] = snapshot.members
        }
    }

    /// Forgets the members of `conversation`. Call inside every write that changes them.
    func invalidate(_ conversation: ConversationID) {
        state.withLock { state in
            state.lists[conversation] = nil
            state.versions[conversation, default: 0] &+= 1
        }
    }

    /// Conversations whose members are cached now.
    var count: Int { state.withLock { $0.lists.count } }
}
