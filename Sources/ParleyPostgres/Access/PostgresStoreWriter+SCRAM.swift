import ParleyCore
import ParleyProtocol

// `StoreWriter`: SCRAM credentials (the XMPP gateway's challenge-response sign-in).
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
}
