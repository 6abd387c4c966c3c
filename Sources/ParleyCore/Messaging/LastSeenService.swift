public import ParleyProtocol

/// "Last seen" (docs/protocol.md, "Last seen"): when a user's last connection closed, kept to
/// the minute, and who may know it or that they are online. A user's `lastSeen` privacy
/// choice decides: `everyone`, `friends`, or `nobody`; and as with read receipts it is a
/// trade: one who shows it to nobody sees no one else's either. A user always sees their own.
public final class LastSeenService: Sendable {
    let context: MessagingContext

    /// Last-seen times are kept to this granularity (ms): precise enough for "5 minutes ago",
    /// coarse enough to say little about a user's habits.
    public static let granularity: Int64 = 60_000

    public init(context: MessagingContext) {
        self.context = context
    }

    /// The user's last connection closed now: the time is kept, to the minute. A failure is
    /// left as it is: the next sign-out writes it again.
    public func record(_ user: UserID) async {
        let now = context.clock()
        let at = now - now % Self.granularity
        try? await context.gateway.write { writer in try writer.saveLastSeen(of: user, at: at) }
    }

    /// Whole seconds from `time` to now on the server's clock (never negative), for
    /// gateways that say "seconds ago" (XMPP's XEP-0012).
    public func secondsSince(_ time: Int64) -> Int64 {
        max(0, (context.clock() - time) / 1000)
    }

    /// What `viewer` may know of `user`'s presence: online, or the last-seen time, or nothing.
    public func lastSeen(of user: UserID, for viewer: UserID) async throws(ProtocolError) -> LastSeen {
        let (visible, seen) = try await context.gateway.read { reader -> (Bool, Int64?) in
            guard try reader.user(id: user) != nil else { throw ProtocolError(.notFound, "no user with id \(user)", field: "userId") }
            let visible = try Self.visible(user, to: viewer, reader: reader)
            return (visible, visible ? try reader.lastSeen(of: [user])[user] : nil)
        }
        guard visible else { return LastSeen(userId: user) }
        if context.delivery.isOnline(user) { return LastSeen(userId: user, online: true) }
        return LastSeen(userId: user, online: false, lastSeenAt: seen)
    }

    /// Whether `viewer` may see `user`'s last seen: their own always; else by `user`'s choice
    /// (`friends`: friends only; a block either way hides it), and never when `viewer` shows
    /// theirs to nobody.
    static func visible(_ user: UserID, to viewer: UserID, reader: StoreReader) throws -> Bool {
        guard user != viewer else { return true }
        guard try reader.privacy(of: viewer).lastSeen != .nobody else { return false }
        if try Friendships.eitherBlocked(user, viewer, reader: reader) { return false }
        switch try reader.privacy(of: user).lastSeen {
        case .everyone: return true
        case .friends: return try reader.friendship(of: user, with: viewer) != nil
        case .nobody: return false
        }
    }
}
