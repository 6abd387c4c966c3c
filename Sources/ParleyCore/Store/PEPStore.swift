public import ParleyProtocol

/// Who may read a personal eventing node's items (XEP-0060 §4.5): anyone of the server
/// (`open`), the owner's contacts, which in Parley are friends (`presence`, XEP-0163's
/// default), or the owner alone (`whitelist`, with no list to add anyone to).
public enum PEPAccessModel: String, Sendable, Equatable, CaseIterable {
    case open
    case presence
    case whitelist
}

/// A node's settings: who may read it and how many items it keeps (the oldest go first).
public struct PEPNodeSettings: Sendable, Equatable {
    public var accessModel: PEPAccessModel
    public var maxItems: Int

    public init(accessModel: PEPAccessModel = .presence, maxItems: Int = 1) {
        self.accessModel = accessModel
        self.maxItems = maxItems
    }
}

/// One published item of a user's personal eventing node (XEP-0163): its payload is the
/// client's XML, kept as text and never read by the core.
public struct StoredPEPItem: Sendable, Equatable {
    public var owner: UserID
    public var node: String
    public var itemID: String
    public var payload: String

    public init(owner: UserID, node: String, itemID: String, payload: String) {
        self.owner = owner
        self.node = node
        self.itemID = itemID
        self.payload = payload
    }
}

/// Personal eventing nodes (part of `StoreReader`). A node exists while it holds an item;
/// its settings are kept with its items.
public protocol PEPReader {
    /// The settings of each of the user's nodes, by node.
    func pepNodes(of owner: UserID) throws -> [String: PEPNodeSettings]
    /// The node's items, newest first (empty when the node does not exist).
    func pepItems(of owner: UserID, node: String) throws -> [StoredPEPItem]
    /// The newest item of each of `nodes` of each of `owners` that has one.
    func pepLastItems(of owners: [UserID], nodes: [String]) throws -> [(StoredPEPItem, PEPNodeSettings)]
}

/// Personal eventing changes (part of `StoreWriter`).
public protocol PEPWriter: PEPReader {
    /// Publishes `item` as its node's newest (replacing an item of the same id), gives the
    /// whole node `settings`, and drops its oldest items beyond `settings.maxItems`.
    func publishPEPItem(_ item: StoredPEPItem, settings: PEPNodeSettings) throws
    /// Gives an existing node `settings` (dropping items beyond its new `maxItems`); returns
    /// whether the node exists.
    func configurePEPNode(of owner: UserID, node: String, settings: PEPNodeSettings) throws -> Bool
    /// Removes one item; returns whether it was there.
    func retractPEPItem(of owner: UserID, node: String, itemID: String) throws -> Bool
    /// Removes the node with all its items; returns whether it existed.
    func deletePEPNode(of owner: UserID, node: String) throws -> Bool
}
