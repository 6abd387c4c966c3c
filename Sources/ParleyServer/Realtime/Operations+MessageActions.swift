import ParleyCore
import ParleyProtocol

extension Operations {
    /// The handlers of the message actions (docs/protocol.md, "Message actions"), each a call
    /// into the core's `MessageActionService`.
    static func registerMessageActions(on table: OperationTableBuilder, actions: MessageActionService) {
        table.on(Op.MessageEdit.self) { context, parameters throws(ProtocolError) in
            try await actions.edit(by: context.user, parameters, connection: context.connection.token)
        }
        table.on(Op.MessageRecall.self) { context, parameters throws(ProtocolError) in
            try await actions.recall(by: context.user, parameters, connection: context.connection.token)
        }
        table.on(Op.MessageHide.self) { context, reference throws(ProtocolError) in
            try await actions.hide(by: context.user, reference, connection: context.connection.token)
        }
        table.on(Op.MessageReact.self) { context, parameters throws(ProtocolError) in
            try await actions.react(by: context.user, parameters, connection: context.connection.token)
        }
        table.on(Op.MessageUnreact.self) { context, parameters throws(ProtocolError) in
            try await actions.unreact(by: context.user, parameters, connection: context.connection.token)
        }
        table.on(Op.MessageListened.self) { context, parameters throws(ProtocolError) in
            try await actions.listen(by: context.user, parameters, connection: context.connection.token)
        }
        table.on(Op.MessageForward.self) { context, parameters throws(ProtocolError) in
            try await actions.forward(by: context.user, parameters, connection: context.connection.token)
        }
        table.on(Op.ConversationPin.self) { context, parameters throws(ProtocolError) in
            try await actions.pin(by: context.user, parameters, connection: context.connection.token)
        }
        table.on(Op.ConversationUnpin.self) { context, parameters throws(ProtocolError) in
            try await actions.unpin(by: context.user, parameters, connection: context.connection.token)
        }
    }
}
