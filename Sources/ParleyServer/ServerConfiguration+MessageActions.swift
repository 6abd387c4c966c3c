import ParleyCore

// The limits of message actions (docs/operations.md, "Limits").
extension ServerConfiguration {
    static func messageActionOptions() -> [Option] {
        [
            number("edit-window", \.editWindowSeconds, 0...31_536_000, "seconds after sending during which a sender may edit a text message", exceeded: "`message.edit` is answered `window_closed`"),
            number("recall-window", \.recallWindowSeconds, 0...31_536_000, "seconds after sending during which a sender may recall a message (a group's owner and admins may recall any member's message at any time)", exceeded: "`message.recall` is answered `window_closed`"),
            number("max-reactions-per-user", \.maxReactionsPerUser, 1...100, "different emoji one user may put on one message", exceeded: "`message.react` is answered `invalid_field` (field `emoji`)"),
            number("max-pins", \.maxPins, 1...100, "pinned messages per conversation", exceeded: "`conversation.pin` is answered `invalid_field` (field `messageId`)"),
            number("reply-excerpt", \.replyExcerptCharacters, 1...1000, "characters of the quoted text a reply's preview carries", exceeded: "the excerpt is cut and ends with …"),
            number("max-mentions", \.maxMentions, 1...1000, "members one message may mention", exceeded: "`message.send` is answered `invalid_field` (field `mentions`)"),
        ]
    }

    /// Copies the message action limits into the core's rules.
    func applyMessageActionRules(to rules: inout MessagingRules) {
        rules.editWindow = Int64(editWindowSeconds) * 1000
        rules.recallWindow = Int64(recallWindowSeconds) * 1000
        rules.maxReactionsPerUser = maxReactionsPerUser
        rules.maxPins = maxPins
        rules.replyExcerptCharacters = replyExcerptCharacters
        rules.maxMentions = maxMentions
    }
}
