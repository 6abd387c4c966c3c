import ParleyCore
import ParleyProtocol
import ParleySQL

// `MediaAccessWriter` (schema version 23).
extension SQLiteStoreWriter {
    func linkMedia(id: String, to conversation: ConversationID, at time: Int64) throws {
        try markMediaReferenced(id: id, at: time)
        try StoreError.mapping("linkMedia") {
            // Only for an upload that exists: a use of an unknown id grants nothing.
            try connection.run("""
                INSERT INTO media_uses (media_id, conversation_id) SELECT id, ? FROM media WHERE id = ?
                ON CONFLICT DO NOTHING
                """, conversation.rawValue, id)
        }
    }

    func markMediaPublic(id: String, at time: Int64) throws {
        try markMediaReferenced(id: id, at: time)
        try StoreError.mapping("markMediaPublic") {
            try connection.run("UPDATE media SET is_public = 1 WHERE id = ? AND is_public = 0", id)
        }
    }
}
