import ParleyCore
import ParleyProtocol
import ParleySQL

// `StoreWriter`: SCRAM credentials (the XMPP gateway's challenge-response sign-in) and the
// gateway's per-user storage.
extension SQLiteStoreWriter {
    func replaceSCRAMCredentials(of userID: UserID, with credentials: [StoredSCRAMCredential]) throws {
        try StoreError.mapping("replaceSCRAMCredentials") {
            try connection.run("DELETE FROM scram_credentials WHERE user_id = ?", userID.rawValue)
            for credential in credentials {
                try connection.run("""
                    INSERT INTO scram_credentials (user_id, mechanism, salt, iterations, stored_key, server_key)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """, userID.rawValue, credential.mechanism, credential.salt, credential.iterations,
                    credential.storedKey, credential.serverKey)
            }
        }
    }

    func setXMPPPrivateItem(of userID: UserID, key: String, value: String?) throws {
        try StoreError.mapping("setXMPPPrivateItem") {
            if let value {
                try connection.run("""
                    INSERT INTO xmpp_private_items (user_id, item_key, value) VALUES (?, ?, ?)
                    ON CONFLICT (user_id, item_key) DO UPDATE SET value = excluded.value
                    """, userID.rawValue, key, value)
            } else {
                try connection.run("DELETE FROM xmpp_private_items WHERE user_id = ? AND item_key = ?", userID.rawValue, key)
            }
        }
    }
}
