import ParleyCore
import ParleyProtocol
import ParleySQL

// `MediaAccessReader` (schema version 23).
extension SQLiteStoreQuerying {
    func mediaGrants(id: String) throws -> MediaGrants {
        try StoreError.mapping("mediaGrants(id:)") {
            let isPublic = try connection.queryFirst("SELECT is_public FROM media WHERE id = ?", id) { try $0.bool(0) } ?? false
            let conversations = try connection.query("SELECT conversation_id FROM media_uses WHERE media_id = ?", id) {
                ConversationID(rawValue: try $0.int64(0))
            }
            return MediaGrants(isPublic: isPublic, conversations: conversations)
        }
    }
}
