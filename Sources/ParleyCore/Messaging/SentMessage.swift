public import ParleyProtocol

/// A message `ConversationService.send` stored, and its JSON as the delivery wrote it for the
/// `message.new` event (nil when no native connection took the event, or for a retry), so
/// that the sender's answer carries the same bytes instead of writing the message again.
public struct SentMessage: Sendable {
    public let message: Message
    public let encodedJSON: [UInt8]?

    public init(message: Message, encodedJSON: [UInt8]?) {
        self.message = message
        self.encodedJSON = encodedJSON
    }
}
