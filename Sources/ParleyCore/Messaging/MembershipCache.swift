import ParleyProtocol
import ParleySync

/// What sending a message needs to know about a conversation, kept in memory so that a send
/// does not ask the database every time: the conversation's kind and people (a 1:1 pair),
/// its member list (a group of 1,000 is 1,000 rows per message), and which pairs of people
/// were last seen to be friends with neither blocking the other.
///
/// Correctness rests on these rules:
/// - Everything is *looked up* inside a write (the writer thread sees every change in order)
///   and *stored* only after that write has committed, together with the version read inside
///   the write.
/// - Every change of membership calls `invalidate` inside its write, and every change of a
///   friendship or a block calls `invalidatePair`: the entry goes and the version moves on, so
///   something read before the change can never be stored after it.
/// - A write that fails stores nothing; an invalidation in a write that fails only costs a miss.
/// - A conversation's kind and its 1:1 pair never change, and the server never deletes a
///   conversation, so that part needs no invalidation.
///
/// Who may post is still decided by `ConversationAccess`; this type only answers its questions
/// faster. Bounded: past `capacity` entries of a kind an arbitrary half of them is dropped.
/// With `capacity` 0 nothing is kept (every send reads the store): the setting for stores that
/// other servers change too.
public final class MembershipCache: Sendable {
    /// The parts of a conversation that never change.
    struct Shape: Sendable {
        let kind: ConversationKind
        /// The two people of a 1:1 conversation.
        let userA: UserID?
        let userB: UserID?
    }

    /// Two people, in either order.
    struct Pair: Hashable, Sendable {
        let low: UserID
        let high: UserID
        init(_ a: UserID, _ b: UserID) {
            low = min(a, b)
            high = max(a, b)
        }
    }

    /// What was read about a conversation inside a write, and the versions it belongs to.
    struct Snapshot: Sendable {
        let conversation: ConversationID
        let shape: Shape
        /// Whether the shape came from the cache (nothing to store afterwards).
        let shapeCached: Bool
        /// The members; empty for rooms, whose occupants live in `RoomOccupancy`.
        let members: Members
        let version: UInt64
        /// Whether the members came from the cache, or need not be kept (rooms).
        let cached: Bool
        /// Set by `ConversationAccess` when it read from the store that the 1:1 pair may write
        /// to each other, with the pair version read before that: kept after the commit.
        var clearedPair: (pair: Pair, version: UInt64)?
    }

    /// A member list, with a set for membership checks, and the group's mutes (until when
    /// each muted member may not post, ms), which change with it (`invalidate`).
    final class Members: Sendable {
        let ids: [UserID]
        let set: Set<UserID>
        let mutedUntil: [UserID: Int64]
        init(_ ids: [UserID], mutedUntil: [UserID: Int64] = [:]) {
            self.ids = ids
            set = Set(ids)
            self.mutedUntil = mutedUntil
        }
        static let none = Members([])
    }

    private struct State {
        var shapes: [ConversationID: Shape] = [:]
        var lists: [ConversationID: Members] = [:]
        /// Bumped by every invalidation; absent means 0.
        var versions: [ConversationID: UInt64] = [:]
        /// Pairs last seen as friends with no block either way.
        var clearedPairs: Set<Pair> = []
        /// Bumped by every `invalidatePair`: one counter for all pairs keeps the bookkeeping
        /// bounded; a change elsewhere only makes a send in flight skip storing its verdict.
        var pairVersion: UInt64 = 0
    }

    private let state = PThreadMutex(State())
    /// Most entries of each kind kept.
    let capacity: Int

    /// A cache of at most `capacity` conversations (and as many pairs); 0 keeps none.
    public init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// The conversation's shape and members: from the cache, or read with `writer`; nil if
    /// there is no such conversation. Call inside a write.
    func snapshot(of conversation: ConversationID, writer: StoreReader) throws -> Snapshot? {
        let (shape, cached, version) = state.withLock {
            ($0.shapes[conversation], $0.lists[conversation], $0.versions[conversation] ?? 0)
        }
        let resolved: Shape
        if let shape {
            resolved = shape
        } else {
            guard let stored = try writer.conversation(id: conversation) else { return nil }
            resolved = Shape(kind: stored.kind, userA: stored.userA, userB: stored.userB)
        }
        let members: Members
        if resolved.kind == .room {
            members = .none
        } else if let cached {
            members = cached
        } else {
            members = Members(try writer.memberIDs(of: conversation),
                              mutedUntil: resolved.kind == .group ? try writer.mutes(in: conversation) : [:])
        }
        return Snapshot(conversation: conversation, shape: resolved, shapeCached: shape != nil, members: members,
                        version: version, cached: resolved.kind == .room || cached != nil)
    }

    /// Whether `pair` was last seen to be friends with no block, and the pair version to store
    /// a fresh verdict under. Call inside a write.
    func clearance(of pair: Pair) -> (cleared: Bool, version: UInt64) {
        state.withLock { ($0.clearedPairs.contains(pair), $0.pairVersion) }
    }

    /// Keeps what a write that has now committed read, unless it changed since.
    func store(_ snapshot: Snapshot) {
        guard capacity > 0 else { return }
        guard !snapshot.shapeCached || !snapshot.cached || snapshot.clearedPair != nil else { return }
        state.withLock { state in
            if !snapshot.shapeCached {
                Self.makeRoom(in: &state.shapes, capacity: capacity)
                state.shapes[snapshot.conversation] = snapshot.shape
            }
            if !snapshot.cached, (state.versions[snapshot.conversation] ?? 0) == snapshot.version {
                Self.makeRoom(in: &state.lists, capacity: capacity)
                state.lists[snapshot.conversation] = snapshot.members
            }
            if let (pair, version) = snapshot.clearedPair, state.pairVersion == version {
                if state.clearedPairs.count >= capacity {
                    for key in state.clearedPairs.prefix(state.clearedPairs.count / 2 + 1) { state.clearedPairs.remove(key) }
                }
                state.clearedPairs.insert(pair)
            }
        }
    }

    /// Crude but bounded; conversations that are busy come back on their next message.
    private static func makeRoom<Value>(in table: inout [ConversationID: Value], capacity: Int) {
        guard table.count >= capacity else { return }
        for key in table.keys.prefix(table.count / 2 + 1) { table[key] = nil }
    }

    /// Forgets the members of `conversation`. Call inside every write that changes them or
    /// their mutes.
    func invalidate(_ conversation: ConversationID) {
        state.withLock { state in
            state.lists[conversation] = nil
            state.versions[conversation, default: 0] &+= 1
        }
    }

    /// Forgets whether `a` and `b` may write to each other. Call inside every write that
    /// changes their friendship or a block between them.
    func invalidatePair(_ a: UserID, _ b: UserID) {
        state.withLock { state in
            state.clearedPairs.remove(Pair(a, b))
            state.pairVersion &+= 1
        }
    }

    /// Conversations whose members are cached now.
    var count: Int { state.withLock { $0.lists.count } }

    /// Pairs cached as free to write to each other now.
    var clearedPairCount: Int { state.withLock { $0.clearedPairs.count } }
}
