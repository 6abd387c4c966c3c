import ParleyProtocol

/// A reply's preview of the message it answers, made by the server when the reply is read or
/// sent: only the quoted id is stored, so a recall or an edit of the quoted message shows in
/// every reply to it and leaves no copy of its text behind.
enum ReplyPreviews {
    /// The preview of `quoted` (nil: gone), bounded to `excerptLimit` characters.
    static func preview(of quoted: Message?, id: String, excerptLimit: Int) -> ReplyPreview {
        guard let quoted else { return ReplyPreview(messageId: id) }
        var preview = ReplyPreview(messageId: id, seq: quoted.seq, sender: quoted.sender, kind: quoted.kind)
        if quoted.recalled != nil {
            preview.recalled = true
        } else if let text = quoted.text {
            preview.excerpt = text.count > excerptLimit ? String(text.prefix(excerptLimit)) + "…" : text
        }
        return preview
    }

    /// `messages` with each reply's preview filled in; each quoted message is read once. A
    /// quoted message at or before `from` (the reader's `historyStart`) is previewed as gone:
    /// a reply must not show a newcomer the history hidden from them.
    static func filled(_ messages: [Message], reader: StoreReader, excerptLimit: Int, from: Int64 = 0) throws -> [Message] {
        guard messages.contains(where: { $0.replyTo != nil }) else { return messages }
        var quoted: [String: Message?] = [:]
        return try messages.map { message in
            guard let id = message.replyTo?.messageId else { return message }
            if quoted[id] == nil {
                let found = try Int64(id).flatMap { try reader.message(id: $0) }
                quoted[id] = .some(found.flatMap { $0.conversationId == message.conversationId && $0.seq > from ? $0 : nil })
            }
            var message = message
            message.replyTo = preview(of: quoted[id] ?? nil, id: id, excerptLimit: excerptLimit)
            return message
        }
    }
}
