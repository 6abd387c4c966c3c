import ParleyProtocol
import ParleySync

/// Who is in which room now. Rooms live in memory: people enter and leave, and leave every
/// room when their last connection drops.
public final class RoomOccupancy: Sendable {
    private let state = PThreadMutex<[ConversationID: Set<UserID>]>([:])

    /// Adds `user`; returns false if they were in already.
    func enter(_ room: ConversationID, _ user: UserID) -> Bool {
        state.withLock { $0[room, default: []].insert(user).inserted }
    }

    /// Removes `user`; returns false if they were not in.
    func leave(_ room: ConversationID, _ user: UserID) -> Bool {
        state.withLock { table in
            guard table[room]?.remove(user) != nil else { return false }
            if table[room]?.isEmpty == true { table[room] = nil }
            return true
        }
    }

    func contains(_ room: ConversationID, _ user: UserID) -> Bool {
        state.withLock { $0[room]?.contains(user) ?? false }
    }

    func occupants(of room: ConversationID) -> [UserID] {
        state.withLock { Array($0[room] ?? []).sorted() }
    }

    func count(of room: ConversationID) -> Int {
        state.withLock { $0[room]?.count ?? 0 }
    }

    /// The rooms `user` is in.
    func rooms(of user: UserID) -> [ConversationID] {
        state.withLock { table in table.compactMap { $0.value.contains(user) ? $0.key : nil }.sorted() }
    }
}
