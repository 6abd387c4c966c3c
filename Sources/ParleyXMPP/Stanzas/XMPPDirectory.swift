public import ParleyCore
public import ParleyProtocol
import ParleySync

/// Jabber addresses of Parley users: `username@domain`, or `~id@domain` for a user without a
/// username (a phone account that has not chosen one; `~` cannot appear in a username).
/// Lookups go through `AccountService`; a username never changes once set, so what was found
/// is remembered (up to `capacity` names, then the memory starts over).
public final class XMPPDirectory: Sendable {
    public let domain: String
    let accounts: AccountService
    private let idsByName = PThreadMutex<[String: UserID]>([:])
    private let capacity = 100_000

    public init(domain: String, accounts: AccountService) {
        self.domain = domain.lowercased()
        self.accounts = accounts
    }

    /// The local part of a user's address.
    public static func localPart(of profile: UserProfile) -> String {
        profile.username?.lowercased() ?? "~\(profile.id.rawValue)"
    }

    /// The user's bare JID.
    public func jid(of profile: UserProfile) -> JID {
        JID(local: Self.localPart(of: profile), domain: domain)
    }

    /// The user a JID of this domain names; `not_found` for anyone else.
    ///
    /// Runs on the caller's executor (`nonisolated(nonsending)`): every 1:1 message's
    /// addressee is looked up here, nearly always in the memory above, and a session would
    /// otherwise leave its loop and come back (two jobs) for that.
    public nonisolated(nonsending) func user(for jid: JID) async throws(ProtocolError) -> UserID {
        guard jid.domain == domain, let local = jid.local else {
            throw ProtocolError(.notFound, "\(jid.bare) is not a user of \(domain)")
        }
        if local.hasPrefix("~") {
            guard let raw = Int64(local.dropFirst()) else { throw ProtocolError(.notFound, "no user \(jid.bare)") }
            return try await accounts.profile(id: UserID(rawValue: raw)).id
        }
        if let id = knownUser(for: jid) { return id }
        let profile = try await accounts.profile(username: local)
        remember(profile)
        return profile.id
    }

    /// The user a JID of this domain names by username, if that name was met before (no
    /// read, no wait: a session's hot path asks before it starts a send with no task); nil
    /// for anything else, which `user(for:)` looks up or refuses.
    public func knownUser(for jid: JID) -> UserID? {
        guard jid.domain == domain, let local = jid.local, !local.hasPrefix("~") else { return nil }
        return idsByName.withLock { $0[local] }
    }

    /// Notes a profile's address (friend lists and events carry them).
    public func remember(_ profile: UserProfile) {
        guard let username = profile.username?.lowercased() else { return }
        idsByName.withLock { table in
            if table.count >= capacity { table.removeAll() }
            table[username] = profile.id
        }
    }
}
