extension Op {
    /// The connection's app went to the background or came back (push notifications go to
    /// users whose every connection is in the background).
    public enum ClientState: APIOperation {
        public typealias Parameters = ClientStateParameters
        public typealias Result = EmptyPayload
        public static let name = "client.state"
    }

    /// Mutes a conversation's push notifications for the user; answers with the mute.
    public enum ConversationMute: APIOperation {
        public typealias Parameters = MuteParameters
        public typealias Result = ParleyProtocol.ConversationMute
        public static let name = "conversation.mute"
    }

    /// Ends a mute (no error if there was none).
    public enum ConversationUnmute: APIOperation {
        public typealias Parameters = ConversationReference
        public typealias Result = EmptyPayload
        public static let name = "conversation.unmute"
    }
}
