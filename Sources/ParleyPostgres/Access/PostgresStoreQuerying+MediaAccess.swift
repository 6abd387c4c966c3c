import ParleyCore
import ParleyProtocol

// `MediaAccessReader` (schema version 21).
extension PostgresStoreQuerying {
    func mediaGrants(id: String) throws -> MediaGrants {
        let isPublic = try queryFirst("mediaGrants(id:)", "SELECT is_public FROM media WHERE id = $1", id) { try $0.bool(0) } ?? false
        let conversations = try query("mediaGrants(id:)", "SELECT conversation_id FROM media_uses WHERE media_id = $1", id) {
            ConversationID(rawValue: try $0.int64(0))
        }
        return MediaGrants(isPublic: isPublic, conversations: conversations)
    }
}
