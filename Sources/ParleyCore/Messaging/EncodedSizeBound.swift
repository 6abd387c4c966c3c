import ParleyProtocol

/// Upper bounds of how many bytes values take once encoded as JSON, so that one answer (a
/// `sync`, a history page) can be kept under a byte budget without encoding it twice.
///
/// Why it matters: a connection whose queued bytes pass `--max-queued-bytes` is cut off, so an
/// answer larger than that bound would cut its client off on every reconnect. The bounds are
/// pessimistic: every string is counted as if each character needing an escape took the
/// longest escape (`\u00XX`), and every fixed field at its widest.
enum EncodedSizeBound {
    /// Ids, numbers, field names and punctuation of one message, at their widest.
    static let messageOverhead = 400
    /// Fixed fields of one conversation summary beside its last message and its strings.
    static let summaryOverhead = 400

    /// Bytes of `string` inside JSON quotes, at most.
    static func string(_ string: String?) -> Int {
        guard let string else { return 0 }
        var bytes = 2
        for byte in string.utf8 {
            switch byte {
            case 0x22, 0x5C, 0x2F: bytes += 2    // \" \\ and \/ (JSONEncoder escapes slashes)
            case 0x00..<0x20: bytes += 6         // \u00XX at worst
            default: bytes += 1
            }
        }
        return bytes
    }

    static func message(_ message: Message) -> Int {
        var bytes = messageOverhead + string(message.id) + string(message.clientId) + string(message.text)
        if let image = message.image { bytes += 100 + string(image.mediaId) + string(image.url) }
        // A waveform value is at most two digits and a comma.
        if let voice = message.voice { bytes += 140 + string(voice.mediaId) + string(voice.url) + voice.waveform.count * 3 }
        if let listened = message.listenedBy { bytes += 16 + listened.count * 22 }
        if let file = message.file { bytes += 160 + string(file.mediaId) + string(file.url) + string(file.name) + string(file.type) }
        if let system = message.system {
            bytes += 100 + string(system.name) + (system.fields ?? []).reduce(0) { $0 + string($1) + 1 }
                + string(system.messageId) + string(system.emoji)
        }
        // Message actions' state: an id is at most 22 bytes quoted with its comma.
        if let reply = message.replyTo { bytes += 200 + string(reply.messageId) + string(reply.excerpt) }
        bytes += (message.mentions?.count ?? 0) * 22 + (message.recalled != nil ? 80 : 0)
        for reaction in message.reactions ?? [] { bytes += 40 + string(reaction.emoji) + reaction.users.count * 22 }
        return bytes
    }

    static func profile(_ profile: UserProfile) -> Int {
        200 + string(profile.username) + string(profile.nickname) + string(profile.avatar) + string(profile.signature)
            + profile.hobbies.reduce(0) { $0 + string($1) + 1 }
    }

    static func friend(_ friend: Friend) -> Int { 100 + profile(friend.user) }

    static func friendRequest(_ request: FriendRequest) -> Int {
        100 + string(request.id) + string(request.greeting) + profile(request.from) + profile(request.to)
    }

    static func summary(_ summary: ConversationSummary) -> Int {
        var bytes = summaryOverhead + string(summary.name) + string(summary.avatar) + (summary.lastMessage.map(message) ?? 0)
        if let peer = summary.peer { bytes += profile(peer) }
        return bytes
    }
}
