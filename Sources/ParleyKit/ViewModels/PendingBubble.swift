/// A message of the reader's still in the outbox: shown after the others with a pending clock
/// or, when refused, a retry mark (UI.md).
public struct PendingBubble: Identifiable, Equatable, Sendable {
    /// The outbox entry's client id.
    public var id: String
    /// The text with emoji, or "[Image]".
    public var text: String
    /// When it was written.
    public var timeLabel: String
    /// Why the server refused it; nil while it waits to go out.
    public var failure: String?
}
