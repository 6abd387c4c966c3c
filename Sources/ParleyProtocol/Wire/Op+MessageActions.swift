// Message actions (docs/protocol.md, "Message actions"): each stored as an event in the
// conversation's sequence, answered after the commit, idempotent by the action's client id.
extension Op {
    /// New text for one of the caller's text messages, within `--edit-window`.
    public enum MessageEdit: APIOperation {
        public typealias Parameters = EditParameters
        public typealias Result = MessageUpdate
        public static let name = "message.edit"
    }

    /// Takes a message back within `--recall-window` (a group's owner: any message, any
    /// time); its text and image are erased from the server.
    public enum MessageRecall: APIOperation {
        public typealias Parameters = MessageActionParameters
        public typealias Result = MessageUpdate
        public static let name = "message.recall"
    }

    /// Hides a message for the caller only ("delete for me"); their other devices hear
    /// `message.hidden`.
    public enum MessageHide: APIOperation {
        public typealias Parameters = MessageReference
        public typealias Result = MessageReference
        public static let name = "message.hide"
    }

    /// Adds the caller's reaction (one emoji) to a message.
    public enum MessageReact: APIOperation {
        public typealias Parameters = ReactParameters
        public typealias Result = MessageUpdate
        public static let name = "message.react"
    }

    /// Removes the caller's reaction.
    public enum MessageUnreact: APIOperation {
        public typealias Parameters = ReactParameters
        public typealias Result = MessageUpdate
        public static let name = "message.unreact"
    }

    /// Copies a text or image message into another conversation, marked forwarded.
    public enum MessageForward: APIOperation {
        public typealias Parameters = ForwardParameters
        public typealias Result = Message
        public static let name = "message.forward"
    }

    /// Pins a message to the top of its conversation (at most `--max-pins`).
    public enum ConversationPin: APIOperation {
        public typealias Parameters = MessageActionParameters
        public typealias Result = PinResult
        public static let name = "conversation.pin"
    }

    /// Unpins a message.
    public enum ConversationUnpin: APIOperation {
        public typealias Parameters = MessageActionParameters
        public typealias Result = PinResult
        public static let name = "conversation.unpin"
    }
}
