import ParleyCore
import ParleyProtocol

extension Operations {
    /// The handlers of typing and read receipts (docs/protocol.md, "Receipts and typing").
    static func registerReceipts(on table: OperationTableBuilder, conversations: ConversationService) {
        let typing = conversations.typing
        table.onCommand(Op.TypingStart.self) { context, reference throws(ProtocolError) in try await typing.start(by: context.user, reference) }
        table.on(Op.TypingStop.self) { context, reference throws(ProtocolError) in
            try typing.stop(by: context.user, reference)
            return EmptyPayload()
        }
        table.on(Op.MessageReaders.self) { context, parameters throws(ProtocolError) in
            try await conversations.readers(for: context.user, parameters)
        }
        table.on(Op.PrivacyGet.self) { context, _ throws(ProtocolError) in
            try await conversations.privacy(of: context.user)
        }
        table.on(Op.UserLastSeen.self) { context, reference throws(ProtocolError) in
            try await conversations.lastSeen.lastSeen(of: reference.userId, for: context.user)
        }
        table.on(Op.PrivacySet.self) { context, settings throws(ProtocolError) in
            try await conversations.setPrivacy(of: context.user, settings)
        }
    }
}
