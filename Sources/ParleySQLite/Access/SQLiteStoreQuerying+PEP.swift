import ParleyCore
import ParleyProtocol
import ParleySQL

// `PEPReader` (schema version 22).
extension SQLiteStoreQuerying {
    func pepNodes(of owner: UserID) throws -> [String: PEPNodeSettings] {
        try StoreError.mapping("pepNodes(of:)") {
            let rows = try connection.query("""
                SELECT node, min(access_model), max(max_items) FROM pep_items WHERE user_id = ? GROUP BY node
                """, owner.rawValue) { row in (try row.string(0), try Self.settings(try row.string(1), try row.int(2))) }
            return Dictionary(rows, uniquingKeysWith: { first, _ in first })
        }
    }

    func pepItems(of owner: UserID, node: String) throws -> [StoredPEPItem] {
        try StoreError.mapping("pepItems(of:node:)") {
            try connection.query("""
                SELECT item_id, payload FROM pep_items WHERE user_id = ? AND node = ? ORDER BY position DESC
                """, owner.rawValue, node) { row in
                StoredPEPItem(owner: owner, node: node, itemID: try row.string(0), payload: try row.string(1))
            }
        }
    }

    func pepLastItems(of owners: [UserID], nodes: [String]) throws -> [(StoredPEPItem, PEPNodeSettings)] {
        guard !owners.isEmpty else { return [] }
        // Decimal integers only, never caller text: safe to build the JSON by hand.
        let list = "[" + owners.map { String($0.rawValue) }.joined(separator: ",") + "]"
        return try StoreError.mapping("pepLastItems(of:nodes:)") {
            var found: [(StoredPEPItem, PEPNodeSettings)] = []
            for node in nodes {
                found += try connection.query("""
                    SELECT user_id, item_id, payload, access_model, max_items FROM pep_items AS p
                    WHERE node = ?1 AND user_id IN (SELECT value FROM json_each(?2))
                      AND position = (SELECT max(position) FROM pep_items AS q WHERE q.user_id = p.user_id AND q.node = ?1)
                    ORDER BY user_id
                    """, node, list) { row in
                    (StoredPEPItem(owner: UserID(rawValue: try row.int64(0)), node: node, itemID: try row.string(1), payload: try row.string(2)),
                     try Self.settings(try row.string(3), try row.int(4)))
                }
            }
            return found
        }
    }

    /// A node's settings as stored (the table's check keeps the model one of the three).
    static func settings(_ model: String, _ maxItems: Int) throws -> PEPNodeSettings {
        guard let access = PEPAccessModel(rawValue: model) else { throw StoreError.failure("unknown PEP access model \(model)") }
        return PEPNodeSettings(accessModel: access, maxItems: maxItems)
    }
}
