/// The bounds of what one user keeps in personal eventing nodes (`PEPService`), each a
/// `parley serve` option (docs/operations.md).
public struct PEPLimits: Sendable, Equatable {
    /// Most nodes one user keeps (`--pep-max-nodes-per-user`).
    public var maxNodesPerUser: Int
    /// Largest payload of one item, in bytes of its XML (`--pep-max-item-bytes`).
    public var maxItemBytes: Int
    /// Most items one node keeps, whatever its `max_items` asks (`--pep-max-items-per-node`).
    public var maxItemsPerNode: Int

    public init(maxNodesPerUser: Int = 64, maxItemBytes: Int = 65_536, maxItemsPerNode: Int = 32) {
        self.maxNodesPerUser = maxNodesPerUser
        self.maxItemBytes = maxItemBytes
        self.maxItemsPerNode = maxItemsPerNode
    }
}
