import ParleyProtocol

/// The search pane's state: the words asked for, the hits so far (newest first), the one
/// selected, and the cursor for the next page.
struct ChatSearch {
    var query: String
    /// The conversation searched (`/search` in a dialogue); nil: every chat.
    var conversation: ConversationID?
    var hits: [SearchHit] = []
    /// Senders' display names, filled in as their profiles arrive.
    var names: [UserID: String] = [:]
    var selection = 0
    var nextBefore: String?
    var loading = true
}
