/// The messages of one day under its header (seed 003).
public struct DialogueSection: Identifiable, Equatable, Sendable {
    /// The day, `yyyy-MM-dd`.
    public var id: String
    /// "Today", "Yesterday", or the date.
    public var title: String
    /// The day's messages and notices, oldest first.
    public var items: [DialogueItem]
}
