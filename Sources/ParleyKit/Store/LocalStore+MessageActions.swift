import ParleyProtocol
import ParleySQL

// The cache's side of message actions: a cached message replaced by its new state.
extension LocalStore {
    /// Replaces the cached message at `message`'s (conversation, seq), and the sessions
    /// list's last message if it is that one; nothing when the cache does not hold it.
    func replaceMessage(_ message: Message) throws(ParleyError) {
        try transaction {
            try connection.run("UPDATE messages SET json = ? WHERE conversation_id = ? AND seq = ?",
                               try encode(message), message.conversationId.rawValue, message.seq)
            if let json = try connection.queryFirst("SELECT json FROM conversations WHERE id = ?", message.conversationId.rawValue,
                                                    row: { try $0.string(0) }) {
                var summary = try decode(ConversationSummary.self, json)
                if summary.lastMessage?.id == message.id {
                    summary.lastMessage = message
                    try storeConversation(summary)
                }
            }
        }
    }

    /// The cached message with this server id in `conversation`, if any.
    func message(id: String, in conversation: ConversationID) throws(ParleyError) -> Message? {
        try guarded {
            try connection.query("SELECT json FROM messages WHERE conversation_id = ?", conversation.rawValue) {
                try decode(Message.self, try $0.string(0))
            }.first { $0.id == id }
        }
    }
}
