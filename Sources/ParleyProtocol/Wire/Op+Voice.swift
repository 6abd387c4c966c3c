// Voice messages (docs/protocol.md, "Voice messages"): sent with `message.send` as kind
// `voice`; a recipient's first play is an event in the conversation's sequence.
extension Op {
    /// The caller played a voice message sent by someone else. The first play of each
    /// recipient who shares read receipts (in a 1:1: both of the pair) is stored as a
    /// `message_listened` event and the members hear `message.updated`; any other play
    /// changes nothing and answers with the message as it is.
    public enum MessageListened: APIOperation {
        public typealias Parameters = MessageActionParameters
        public typealias Result = ListenResult
        public static let name = "message.listened"
    }
}
