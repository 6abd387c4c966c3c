public import ParleyProtocol

/// What a gateway keeps for a user that Parley has no field of its own for, by key: the XMPP
/// gateway's private XML (XEP-0049, where Jabber clients keep bookmarks) and the names and
/// groups a user gives roster items. The values are the gateway's (XML text); the core only
/// keeps them, each user's apart, within a count per user.
public final class PrivateStorageService: Sendable {
    let context: MessagingContext

    public init(context: MessagingContext) {
        self.context = context
    }

    /// The user's items whose keys start with `keyPrefix` ("" for all), by key.
    public func items(of user: UserID, keyPrefix: String) async throws(ProtocolError) -> [String: String] {
        try await context.gateway.read { reader in try reader.xmppPrivateItems(of: user, keyPrefix: keyPrefix) }
    }

    /// The user's item `key`, if set.
    public func item(of user: UserID, key: String) async throws(ProtocolError) -> String? {
        try await items(of: user, keyPrefix: key)[key]
    }

    /// Sets the item `key` to `value` (nil removes it). A new key when the user already keeps
    /// `limit` items is refused with `quota_exceeded`; replacing or removing one never is.
    public func set(_ value: String?, key: String, of user: UserID, limit: Int) async throws(ProtocolError) {
        let refused: Bool = try await context.gateway.write { writer in
            if value != nil {
                let existing = try writer.xmppPrivateItems(of: user, keyPrefix: "")
                if existing[key] == nil && existing.count >= limit { return true }
            }
            try writer.setXMPPPrivateItem(of: user, key: key, value: value)
            return false
        }
        if refused { throw ProtocolError(.quotaExceeded, "at most \(limit) stored items per user") }
    }
}
