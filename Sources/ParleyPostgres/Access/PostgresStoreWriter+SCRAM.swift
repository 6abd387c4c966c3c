import ParleyCore
import ParleyProtocol

// `StoreWriter`: SCRAM credentials (the XMPP gateway's challenge-response sign-in) and the
// gateway's per-user storage.
extension PostgresStoreWriter {
    func replaceSCRAMCredentials(of userID: UserID, with credentials: [StoredSCRAMCredential]) throws {
        try run("replaceSCRAMCredentials", "DELETE FROM scram_credentials WHERE user_id = $1", userID.rawValue)
        for credential in credentials {
            try run("replaceSCRAMCredentials", """
                INSERT INTO scram_credentials (user_id, mechanism, salt, iterations, stored_key, server_key)
                VALUES ($1, $2, $3, $4, $5, $6)
                """, userID.rawValue, credential.mechanism, credential.salt, credential.iterations,
                credential.storedKey, credential.serverKey)
        }
    }

    func setXMPPPrivateItem(of userID: UserID, key: String, value: String?) throws {
        if let value {
            try run("setXMPPPrivateItem", """
                INSERT INTO xmpp_private_items (user_id, item_key, value) VALUES ($1, $2, $3)
                ON CONFLICT (user_id, item_key) DO UPDATE SET value = excluded.value
                """, userID.rawValue, key, value)
        } else {
            try run("setXMPPPrivateItem", "DELETE FROM xmpp_private_items WHERE user_id = $1 AND item_key = $2", userID.rawValue, key)
        }
    }
}
