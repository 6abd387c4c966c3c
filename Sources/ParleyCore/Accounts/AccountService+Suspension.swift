public import ParleyProtocol

// Suspended accounts (docs/protocol.md, "Admin API"): refused at every sign-in and on every
// authenticated request until the suspension ends or is lifted.
extension AccountService {
    /// Throws `suspended` (with its end and reason) if `user` is suspended at `now`.
    static func checkNotSuspended(_ user: UserID, reader: StoreReader, now: Int64) throws {
        guard let suspension = try reader.suspension(of: user), suspension.holds(at: now) else { return }
        throw ProtocolError(.suspended, "this account is suspended" + (suspension.until == nil ? "" : " until the time in 'until'"),
                            until: suspension.until, reason: suspension.reason)
    }

    /// Whether `user` may be signed in at all now (for gateways that check before they ask
    /// the store for more).
    public func checkNotSuspended(_ user: UserID) async throws(ProtocolError) {
        let now = clock()
        try await read { reader in try Self.checkNotSuspended(user, reader: reader, now: now) }
    }
}
