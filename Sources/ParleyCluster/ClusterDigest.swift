public import ParleyProtocol

/// A short fingerprint of what a node holds: its connected users and its room entries. Quiet
/// heartbeats carry this instead of the lists; a node whose copy gives another fingerprint
/// asks for the full lists (docs/architecture.md, "Cluster").
///
/// Each part is the wrapping sum of a mixed 64-bit value per element, so it does not depend
/// on order, is the same for equal sets on every node and build, and a user or entry added or
/// removed changes it by exactly that element's value (which lets `ClusterDirectory` keep it
/// current as notices arrive instead of going over a node's users at every beat).
public struct ClusterDigest: Codable, Sendable, Equatable {
    /// Of the node's connected users.
    public var users: UInt64
    /// Of the node's room entries (room, user).
    public var rooms: UInt64

    public init(users: UInt64, rooms: UInt64) {
        self.users = users
        self.rooms = rooms
    }

    /// The digest of `users` and the room table `rooms`.
    public init(users: some Sequence<UserID>, rooms: [ConversationID: Set<UserID>]) {
        self.init(users: Self.users(users), rooms: Self.rooms(rooms))
    }

    /// The `users` part for these users (each counted once per occurrence: pass a set).
    public static func users(_ users: some Sequence<UserID>) -> UInt64 {
        users.reduce(0) { $0 &+ element($1) }
    }

    /// One user's share of `users`.
    public static func element(_ user: UserID) -> UInt64 {
        mix(UInt64(bitPattern: user.rawValue))
    }

    /// The `rooms` part of a room table.
    public static func rooms(_ table: [ConversationID: Set<UserID>]) -> UInt64 {
        var sum: UInt64 = 0
        for (room, users) in table {
            // Mixed once more with the room, so the same user in two rooms counts twice and
            // an entry never equals a bare user id.
            let salt = mix(UInt64(bitPattern: room.rawValue) ^ 0x5253_4F4F_4D53_0000)
            for user in users { sum &+= mix(salt &+ UInt64(bitPattern: user.rawValue)) }
        }
        return sum
    }

    /// Spreads every input bit over the whole word (the finalizer of the SplitMix64
    /// generator), so sums of ids that differ in a few low bits do not cancel out.
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
