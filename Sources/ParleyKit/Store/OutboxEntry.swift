public import ParleyProtocol

/// A message written on this device and not yet acknowledged by the server. It keeps its
/// client id across retries, so that the server stores it once however often it is sent.
public struct OutboxEntry: Sendable, Equatable, Identifiable {
    /// Where the entry stands.
    public enum State: Sendable, Equatable {
        /// Waiting to go out (or going out): it is sent on every (re)connect until acknowledged.
        case pending
        /// The server refused it for a reason that a retry would not change (not friends any
        /// more, blocked, too long…). It stays until `retry` or `discard`.
        case failed(ProtocolError)
    }

    /// The client id (a UUID), which is also the entry's identity.
    public var clientId: String
    /// Where it goes.
    public var conversationId: ConversationID
    /// `text` or `image`.
    public var kind: MessageKind
    /// The text of a text message.
    public var text: String?
    /// The upload of an image message.
    public var mediaId: String?
    /// When it was written, ms since the epoch (device clock).
    public var createdAt: Int64
    /// How many times it was sent without an answer.
    public var attempts: Int
    /// Pending or failed.
    public var state: State

    /// The client id.
    public var id: String { clientId }

    /// Creates an entry.
    public init(clientId: String, conversationId: ConversationID, kind: MessageKind, text: String?, mediaId: String?,
                createdAt: Int64, attempts: Int = 0, state: State = .pending) {
        self.clientId = clientId
        self.conversationId = conversationId
        self.kind = kind
        self.text = text
        self.mediaId = mediaId
        self.createdAt = createdAt
        self.attempts = attempts
        self.state = state
    }

    /// The `message.send` parameters for this entry.
    var sendParameters: SendParameters {
        SendParameters(conversationId: conversationId, clientId: clientId, kind: kind, text: text, mediaId: mediaId)
    }
}
