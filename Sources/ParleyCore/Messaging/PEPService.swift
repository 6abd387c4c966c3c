public import ParleyProtocol

/// Personal eventing nodes (XEP-0163) that clients publish to: each user's nodes, their items
/// and who may read them. The items are the client's XML, which the core keeps as text and
/// never reads; the rules are here: the owner alone publishes, retracts, configures and
/// deletes; who else reads a node is its access model (`open`: anyone, `presence`: the
/// owner's friends, `whitelist`: nobody); every limit of `PEPLimits`.
public final class PEPService: Sendable {
    let context: MessagingContext
    public let limits: PEPLimits

    public init(context: MessagingContext, limits: PEPLimits = PEPLimits()) {
        self.context = context
        self.limits = limits
    }

    /// The items of `owner`'s node that `reader` may see, newest first: `not_found` when the
    /// node does not exist, `forbidden` when its access model keeps `reader` out.
    public func items(of owner: UserID, node: String, for reader: UserID) async throws(ProtocolError) -> [StoredPEPItem] {
        try await context.gateway.read { store in
            guard let settings = try store.pepNodes(of: owner)[node] else {
                throw ProtocolError(.notFound, "no node \(node)")
            }
            guard try Self.mayRead(settings, owner: owner, reader: reader, store: store) else {
                throw ProtocolError(.forbidden, "the node's access model keeps you out")
            }
            return try store.pepItems(of: owner, node: node)
        }
    }

    /// The settings of one of the owner's nodes (`not_found` when it does not exist).
    public func settings(of owner: UserID, node: String) async throws(ProtocolError) -> PEPNodeSettings {
        let nodes = try await context.gateway.read { reader in try reader.pepNodes(of: owner) }
        guard let settings = nodes[node] else { throw ProtocolError(.notFound, "no node \(node)") }
        return settings
    }

    /// Publishes an item to the owner's node, creating the node with `settings` (or the
    /// defaults) if it is new; `settings` given for an existing node replace its own.
    /// Returns the node's settings now, which say who hears of it.
    @discardableResult
    public func publish(_ item: StoredPEPItem, settings: PEPNodeSettings?) async throws(ProtocolError) -> PEPNodeSettings {
        guard item.payload.utf8.count <= limits.maxItemBytes else {
            throw ProtocolError(.payloadTooLarge, "an item holds at most \(limits.maxItemBytes) bytes", field: "payload")
        }
        guard !item.node.isEmpty, !item.itemID.isEmpty else { throw ProtocolError(.invalidField, "a node and an item id are needed", field: "node") }
        var bounded: PEPNodeSettings?
        if let settings { bounded = try self.bounded(settings) }
        let requested = bounded
        let limits = self.limits
        return try await context.gateway.write { writer in
            let nodes = try writer.pepNodes(of: item.owner)
            if nodes[item.node] == nil && nodes.count >= limits.maxNodesPerUser {
                throw ProtocolError(.quotaExceeded, "at most \(limits.maxNodesPerUser) nodes per user")
            }
            let chosen = requested ?? nodes[item.node] ?? PEPNodeSettings()
            try writer.publishPEPItem(item, settings: chosen)
            return chosen
        }
    }

    /// Gives an existing node new settings (`not_found` when it does not exist).
    public func configure(_ node: String, of owner: UserID, settings: PEPNodeSettings) async throws(ProtocolError) {
        let bounded = try bounded(settings)
        let found = try await context.gateway.write { writer in try writer.configurePEPNode(of: owner, node: node, settings: bounded) }
        guard found else { throw ProtocolError(.notFound, "no node \(node)") }
    }

    /// Removes one item (`not_found` when it is not there); returns the node's settings.
    @discardableResult
    public func retract(_ itemID: String, from node: String, of owner: UserID) async throws(ProtocolError) -> PEPNodeSettings {
        try await context.gateway.write { writer in
            guard let settings = try writer.pepNodes(of: owner)[node], try writer.retractPEPItem(of: owner, node: node, itemID: itemID) else {
                throw ProtocolError(.notFound, "no item \(itemID) in \(node)")
            }
            return settings
        }
    }

    /// Removes a node and its items (`not_found` when it does not exist); returns its
    /// settings, which say who hears of it.
    @discardableResult
    public func delete(_ node: String, of owner: UserID) async throws(ProtocolError) -> PEPNodeSettings {
        try await context.gateway.write { writer in
            guard let settings = try writer.pepNodes(of: owner)[node] else { throw ProtocolError(.notFound, "no node \(node)") }
            _ = try writer.deletePEPNode(of: owner, node: node)
            return settings
        }
    }

    /// The newest item of each of `nodes` of each of `owners` that `reader` may see (the
    /// last published items a client gets when it comes online or gains a friend).
    public func lastItems(of owners: [UserID], nodes: [String], for reader: UserID) async throws(ProtocolError) -> [StoredPEPItem] {
        guard !owners.isEmpty, !nodes.isEmpty else { return [] }
        return try await context.gateway.read { store in
            try store.pepLastItems(of: owners, nodes: nodes).filter { entry in
                try Self.mayRead(entry.1, owner: entry.0.owner, reader: reader, store: store)
            }.map { $0.0 }
        }
    }

    /// Who the owner's node tells of its changes: the owner, and the friends unless it is
    /// the owner's alone.
    public func audience(of owner: UserID, settings: PEPNodeSettings) async -> [UserID] {
        guard settings.accessModel != .whitelist else { return [owner] }
        let friends = (try? await context.gateway.read { reader in try reader.friendships(of: owner).map(\.friendID) }) ?? []
        return friends + [owner]
    }

    /// Whether `reader` may read a node of `owner`'s with `settings`.
    static func mayRead(_ settings: PEPNodeSettings, owner: UserID, reader: UserID, store: StoreReader) throws -> Bool {
        if owner == reader { return true }
        switch settings.accessModel {
        case .open: return true
        case .presence: return try store.friendship(of: owner, with: reader) != nil
        case .whitelist: return false
        }
    }

    /// `settings` within the limits: `max_items` of at least one and at most the limit.
    private func bounded(_ settings: PEPNodeSettings) throws(ProtocolError) -> PEPNodeSettings {
        guard settings.maxItems >= 1 else { throw ProtocolError(.invalidField, "max_items is at least 1", field: "max_items") }
        var bounded = settings
        bounded.maxItems = min(settings.maxItems, limits.maxItemsPerNode)
        return bounded
    }
}
