/// `message.listened`'s result: the voice message as it is now and, when this play was
/// stored, its `message_listened` event (absent for a repeat, or when receipts are not shared).
public struct ListenResult: Codable, Sendable, Equatable {
    public var message: Message
    public var event: Message?
    public init(message: Message, event: Message? = nil) {
        self.message = message
        self.event = event
    }
}
