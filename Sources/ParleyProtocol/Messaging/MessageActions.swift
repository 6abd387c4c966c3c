/// `message.edit`: new text for one of the caller's own text messages.
public struct EditParameters: Codable, Sendable {
    public var conversationId: ConversationID
    /// The server id of the message to edit.
    public var messageId: String
    /// The caller's id for this action (idempotent retries, like a send's).
    public var clientId: String
    public var text: String
    public init(conversationId: ConversationID, messageId: String, clientId: String, text: String) {
        self.conversationId = conversationId
        self.messageId = messageId
        self.clientId = clientId
        self.text = text
    }
}

/// `message.recall`, `conversation.pin`, `conversation.unpin`: an action on one message.
public struct MessageActionParameters: Codable, Sendable {
    public var conversationId: ConversationID
    public var messageId: String
    /// The caller's id for this action (idempotent retries).
    public var clientId: String
    public init(conversationId: ConversationID, messageId: String, clientId: String) {
        self.conversationId = conversationId
        self.messageId = messageId
        self.clientId = clientId
    }
}

/// `message.react` / `message.unreact`: one emoji on a message.
public struct ReactParameters: Codable, Sendable {
    public var conversationId: ConversationID
    public var messageId: String
    /// The caller's id for this action (idempotent retries).
    public var clientId: String
    /// Exactly one emoji (one grapheme).
    public var emoji: String
    public init(conversationId: ConversationID, messageId: String, clientId: String, emoji: String) {
        self.conversationId = conversationId
        self.messageId = messageId
        self.clientId = clientId
        self.emoji = emoji
    }
}

/// `message.forward`: a copy of a message into another conversation.
public struct ForwardParameters: Codable, Sendable {
    /// Where the message is now.
    public var conversationId: ConversationID
    public var messageId: String
    /// Where the copy goes (a conversation the caller may post to).
    public var to: ConversationID
    /// The caller's id for the copy (idempotent retries, like a send's).
    public var clientId: String
    public init(conversationId: ConversationID, messageId: String, to: ConversationID, clientId: String) {
        self.conversationId = conversationId
        self.messageId = messageId
        self.to = to
        self.clientId = clientId
    }
}

/// `message.hide` and the `message.hidden` event: one message of one conversation.
public struct MessageReference: Codable, Sendable, Equatable {
    public var conversationId: ConversationID
    public var messageId: String
    public init(conversationId: ConversationID, messageId: String) {
        self.conversationId = conversationId
        self.messageId = messageId
    }
}

/// An action's result and the `message.updated` event: the action as stored in the
/// conversation's sequence (a system notice with its own `seq`), and the message acted on in
/// its state after it.
public struct MessageUpdate: Codable, Sendable, Equatable {
    /// The action event (`kind: "system"`, `system.type` one of the message actions).
    public var event: Message
    /// The message acted on, as it is now.
    public var message: Message
    public init(event: Message, message: Message) {
        self.event = event
        self.message = message
    }
}

/// A pinned message of a conversation.
public struct PinnedMessage: Codable, Sendable, Equatable {
    public var message: Message
    /// Who pinned it.
    public var pinnedBy: UserID
    /// When, ms since the epoch.
    public var pinnedAt: Int64
    public init(message: Message, pinnedBy: UserID, pinnedAt: Int64) {
        self.message = message
        self.pinnedBy = pinnedBy
        self.pinnedAt = pinnedAt
    }
}

/// `conversation.pin` / `conversation.unpin`'s result: the action and the pinned list after it.
public struct PinResult: Codable, Sendable, Equatable {
    public var update: MessageUpdate
    /// The conversation's pinned messages, newest pin first.
    public var pinned: [PinnedMessage]
    public init(update: MessageUpdate, pinned: [PinnedMessage]) {
        self.update = update
        self.pinned = pinned
    }
}
