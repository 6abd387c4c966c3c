import ParleyCore
import ParleyProtocol

// `PEPWriter` (schema version 20).
extension PostgresStoreWriter {
    func publishPEPItem(_ item: StoredPEPItem, settings: PEPNodeSettings) throws {
        // The newest position of the node, the replaced item included, plus one: a
        // republished id becomes the newest.
        try run("publishPEPItem", """
            INSERT INTO pep_items (user_id, node, item_id, payload, position, access_model, max_items)
            VALUES ($1, $2, $3, $4, (SELECT coalesce(max(position), 0) + 1 FROM pep_items WHERE user_id = $1 AND node = $2), $5, $6)
            ON CONFLICT (user_id, node, item_id) DO UPDATE SET payload = excluded.payload, position = excluded.position
            """, item.owner.rawValue, item.node, item.itemID, item.payload, settings.accessModel.rawValue, settings.maxItems)
        _ = try configurePEPNode(of: item.owner, node: item.node, settings: settings)
    }

    func configurePEPNode(of owner: UserID, node: String, settings: PEPNodeSettings) throws -> Bool {
        let changed = try run("configurePEPNode", "UPDATE pep_items SET access_model = $3, max_items = $4 WHERE user_id = $1 AND node = $2",
                              owner.rawValue, node, settings.accessModel.rawValue, settings.maxItems)
        try run("configurePEPNode", """
            DELETE FROM pep_items WHERE user_id = $1 AND node = $2 AND position NOT IN
                (SELECT position FROM pep_items WHERE user_id = $1 AND node = $2 ORDER BY position DESC LIMIT $3)
            """, owner.rawValue, node, settings.maxItems)
        return changed > 0
    }

    func retractPEPItem(of owner: UserID, node: String, itemID: String) throws -> Bool {
        try run("retractPEPItem", "DELETE FROM pep_items WHERE user_id = $1 AND node = $2 AND item_id = $3", owner.rawValue, node, itemID) > 0
    }

    func deletePEPNode(of owner: UserID, node: String) throws -> Bool {
        try run("deletePEPNode", "DELETE FROM pep_items WHERE user_id = $1 AND node = $2", owner.rawValue, node) > 0
    }
}
