public import ParleyProtocol

/// A message action made while offline, kept in the action outbox until the server has it.
public enum PendingAction: Codable, Sendable, Equatable {
    case edit(EditParameters)
    case react(ReactParameters)
    case unreact(ReactParameters)
    case recall(MessageActionParameters)

    /// The action's client id (the server's idempotency key).
    public var clientId: String {
        switch self {
        case .edit(let parameters): parameters.clientId
        case .react(let parameters), .unreact(let parameters): parameters.clientId
        case .recall(let parameters): parameters.clientId
        }
    }

    /// The conversation acted in.
    public var conversationId: ConversationID {
        switch self {
        case .edit(let parameters): parameters.conversationId
        case .react(let parameters), .unreact(let parameters): parameters.conversationId
        case .recall(let parameters): parameters.conversationId
        }
    }
}

extension EditParameters: Equatable {
    public static func == (a: Self, b: Self) -> Bool {
        a.conversationId == b.conversationId && a.messageId == b.messageId && a.clientId == b.clientId && a.text == b.text
    }
}

extension ReactParameters: Equatable {
    public static func == (a: Self, b: Self) -> Bool {
        a.conversationId == b.conversationId && a.messageId == b.messageId && a.clientId == b.clientId && a.emoji == b.emoji
    }
}

extension MessageActionParameters: Equatable {
    public static func == (a: Self, b: Self) -> Bool {
        a.conversationId == b.conversationId && a.messageId == b.messageId && a.clientId == b.clientId
    }
}
