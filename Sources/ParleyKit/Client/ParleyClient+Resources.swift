public import ParleyProtocol

// The resources each user is online on (`presence.resource`, `user.resources`): native devices
// and Jabber clients, each with its show and status. Kept in memory only: they are as
// short-lived as the connections behind them.
extension ParleyClient {
    /// The resources `user` (a friend, or the signed-in user) is known to be online on now,
    /// native devices first, then by name.
    public func resources(of user: UserID) -> [ResourcePresence] {
        (resourcesByUser[user] ?? [:]).values.sorted { a, b in
            let aNative = a.client == ResourcePresence.parleyClient, bNative = b.client == ResourcePresence.parleyClient
            return aNative != bNative ? aNative : a.resource < b.resource
        }
    }

    /// Asks the server which resources `user` is online on (`user.resources`: the user's own,
    /// or a friend's), keeps them, and reports `.resources(user)`.
    @discardableResult
    public func fetchResources(of user: UserID) async throws(ParleyError) -> [ResourcePresence] {
        let list = try await call(Op.UserResources.self, UserReference(userId: user))
        resourcesByUser[user] = Dictionary(list.resources.filter(\.available).map { ($0.resource, $0) }, uniquingKeysWith: { _, last in last })
        emit(.resources(user))
        return resources(of: user)
    }

    /// A resource came, changed or went: kept (or dropped), then reported.
    func applyResource(_ resource: ResourcePresence) {
        // Older servers told only of the user's own Jabber clients, without `userId`.
        guard let user = resource.userId ?? me?.profile.id else { return }
        var known = resourcesByUser[user] ?? [:]
        if resource.available {
            known[resource.resource] = resource
        } else {
            known[resource.resource] = nil
        }
        resourcesByUser[user] = known.isEmpty ? nil : known
        emit(.resources(user))
    }
}
