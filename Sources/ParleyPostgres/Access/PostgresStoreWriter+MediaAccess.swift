import ParleyCore
import ParleyProtocol

// `MediaAccessWriter` (schema version 21).
extension PostgresStoreWriter {
    func linkMedia(id: String, to conversation: ConversationID, at time: Int64) throws {
        try markMediaReferenced(id: id, at: time)
        // Only for an upload that exists: a use of an unknown id grants nothing.
        try run("linkMedia", """
            INSERT INTO media_uses (media_id, conversation_id) SELECT id, $1::bigint FROM media WHERE id = $2
            ON CONFLICT DO NOTHING
            """, conversation.rawValue, id)
    }

    func markMediaPublic(id: String, at time: Int64) throws {
        try markMediaReferenced(id: id, at: time)
        try run("markMediaPublic", "UPDATE media SET is_public = true WHERE id = $1 AND NOT is_public", id)
    }
}
