import ParleyCore
import ParleyProtocol

// `PEPReader` (schema version 20).
extension PostgresStoreQuerying {
    func pepNodes(of owner: UserID) throws -> [String: PEPNodeSettings] {
        let rows = try query("pepNodes(of:)", """
            SELECT node, min(access_model), max(max_items) FROM pep_items WHERE user_id = $1 GROUP BY node
            """, owner.rawValue) { row in (try row.string(0), try Self.pepSettings(try row.string(1), try row.int(2))) }
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }

    func pepItems(of owner: UserID, node: String) throws -> [StoredPEPItem] {
        try query("pepItems(of:node:)", """
            SELECT item_id, payload FROM pep_items WHERE user_id = $1 AND node = $2 ORDER BY position DESC
            """, owner.rawValue, node) { row in
            StoredPEPItem(owner: owner, node: node, itemID: try row.string(0), payload: try row.string(1))
        }
    }

    func pepLastItems(of owners: [UserID], nodes: [String]) throws -> [(StoredPEPItem, PEPNodeSettings)] {
        guard !owners.isEmpty else { return [] }
        // Decimal integers only, never caller text: safe to build the array literal by hand.
        let list = "{" + owners.map { String($0.rawValue) }.joined(separator: ",") + "}"
        var found: [(StoredPEPItem, PEPNodeSettings)] = []
        for node in nodes {
            found += try query("pepLastItems(of:nodes:)", """
                SELECT DISTINCT ON (user_id) user_id, item_id, payload, access_model, max_items FROM pep_items
                WHERE node = $1 AND user_id = ANY ($2::bigint[])
                ORDER BY user_id, position DESC
                """, node, list) { row in
                (StoredPEPItem(owner: UserID(rawValue: try row.int64(0)), node: node, itemID: try row.string(1), payload: try row.string(2)),
                 try Self.pepSettings(try row.string(3), try row.int(4)))
            }
        }
        return found
    }

    /// A node's settings as stored (the table's check keeps the model one of the three).
    static func pepSettings(_ model: String, _ maxItems: Int) throws -> PEPNodeSettings {
        guard let access = PEPAccessModel(rawValue: model) else { throw StoreError.failure("unknown PEP access model \(model)") }
        return PEPNodeSettings(accessModel: access, maxItems: maxItems)
    }
}
