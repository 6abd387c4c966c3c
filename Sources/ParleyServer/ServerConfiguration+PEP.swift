import ParleyCore

// The limits of personal eventing nodes that Jabber clients publish to (docs/xmpp.md,
// docs/operations.md).
extension ServerConfiguration {
    static func pepOptions() -> [Option] {
        [
            number("pep-max-nodes-per-user", \.pepMaxNodesPerUser, 1...10_000, "most personal eventing (XEP-0163) nodes one user keeps", exceeded: "a publish to a new node is refused with `resource-constraint`"),
            number("pep-max-item-bytes", \.pepMaxItemBytes, 256...1 << 24, "largest payload of one personal eventing item, in bytes of its XML", exceeded: "the publish is refused with `not-acceptable` and `<payload-too-big/>`"),
            number("pep-max-items-per-node", \.pepMaxItemsPerNode, 1...10_000, "most items one personal eventing node keeps (`pubsub#max_items` is capped here; `max` means this)", exceeded: "the oldest items are dropped"),
        ]
    }

    /// The personal eventing limits as the core takes them.
    var pepLimits: PEPLimits {
        PEPLimits(maxNodesPerUser: pepMaxNodesPerUser, maxItemBytes: pepMaxItemBytes, maxItemsPerNode: pepMaxItemsPerNode)
    }
}
