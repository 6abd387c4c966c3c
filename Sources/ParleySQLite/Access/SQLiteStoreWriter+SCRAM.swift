import ParleyCore
import ParleyProtocol
import ParleySQL

// `StoreWriter`: SCRAM credentials (the XMPP gateway's challenge-response sign-in).
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
}
