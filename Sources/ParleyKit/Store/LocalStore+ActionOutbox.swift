import ParleyProtocol
import ParleySQL

// The action outbox: edits, reactions and recalls made offline, oldest first.
extension LocalStore {
    func enqueueAction(_ action: PendingAction) throws(ParleyError) {
        try guarded {
            try connection.run("INSERT OR IGNORE INTO action_outbox (client_id, conversation_id, json) VALUES (?, ?, ?)",
                               action.clientId, action.conversationId.rawValue, try encode(action))
        }
    }

    /// Every waiting action, oldest first.
    func pendingActions() throws(ParleyError) -> [PendingAction] {
        try guarded {
            try connection.query("SELECT json FROM action_outbox ORDER BY position") { try decode(PendingAction.self, try $0.string(0)) }
        }
    }

    func removeAction(_ clientId: String) throws(ParleyError) {
        try guarded { _ = try connection.run("DELETE FROM action_outbox WHERE client_id = ?", clientId) }
    }
}
