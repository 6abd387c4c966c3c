import ParleyCore
import ParleyProtocol

/// The WebSocket operations of push notifications: a connection's foreground state, mutes.
enum PushOperations {
    static func add(to table: OperationTableBuilder, conversations: ConversationService, activity: ClientActivity) {
        table.on(Op.ClientState.self) { context, parameters in
            activity.set(context.connection.token, active: parameters.state == .active)
            return EmptyPayload()
        }
        table.on(Op.ConversationMute.self) { context, parameters throws(ProtocolError) in
            try await conversations.mute(for: context.user, parameters, connection: context.connection.token)
        }
        table.onCommand(Op.ConversationUnmute.self) { context, reference throws(ProtocolError) in
            try await conversations.unmute(for: context.user, reference, connection: context.connection.token)
        }
    }
}
