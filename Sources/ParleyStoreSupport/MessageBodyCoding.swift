import FoundationEssentials
package import ParleyCore
package import ParleyProtocol

/// How a message's structured parts are kept in one column by every store: a JSON object with the
/// image attachment and/or the system notice, and what message actions add (the answered
/// message's id, mentions, the forwarded, edited and recalled marks, reactions). None is ever
/// searched by SQL, and JSON lets every part gain fields without a migration.
package enum MessageBodyCoding {
    /// The parts of a message that live in `body`.
    package struct Body: Codable, Equatable {
        package var image: ImageAttachment?
        package var file: FileAttachment?
        package var system: SystemNotice?
        /// Only the answered message's id: the excerpt is made when the reply is read, so a
        /// recall of the quoted message leaves no copy of its text behind.
        package var replyTo: String?
        package var mentions: [UserID]?
        package var mentionsAll: Bool?
        package var forwarded: Bool?
        package var editedAt: Int64?
        package var recalled: RecallMark?
        package var reactions: [Reaction]?
        package var voice: VoiceAttachment?
        /// The recipients who played a voice message (`message_listened`).
        package var listenedBy: [UserID]?

        package init(image: ImageAttachment? = nil, system: SystemNotice? = nil) {
            self.image = image
            self.system = system
        }

        /// The parts of `message` kept in `body`.
        package init(_ message: Message) {
            image = message.image
            file = message.file
            system = message.system
            replyTo = message.replyTo?.messageId
            mentions = message.mentions
            mentionsAll = message.mentionsAll
            forwarded = message.forwarded
            editedAt = message.editedAt
            recalled = message.recalled
            reactions = message.reactions
            voice = message.voice
            listenedBy = message.listenedBy
        }

        /// No part at all: the body is kept as SQL `NULL`. Each field checked directly, not
        /// by comparing with an empty `Body` (which cost ≈ 4,000 instructions on every send's
        /// write, where nearly every body is empty); a part added above belongs here too.
        var isEmpty: Bool {
            image == nil && file == nil && system == nil && replyTo == nil && mentions == nil && mentionsAll == nil
                && forwarded == nil && editedAt == nil && recalled == nil && reactions == nil && voice == nil && listenedBy == nil
        }
    }

    /// The column text for `image` and `system`; nil (SQL `NULL`) when there is neither, as
    /// for every text message.
    package static func encode(image: ImageAttachment?, system: SystemNotice?) throws(StoreError) -> String? {
        try encode(Body(image: image, system: system))
    }

    /// The column text for a new message's parts.
    package static func encode(_ message: NewMessage) throws(StoreError) -> String? {
        var body = Body(image: message.image, system: message.system)
        body.file = message.file
        body.replyTo = message.replyTo?.messageId
        body.mentions = message.mentions
        body.mentionsAll = message.mentionsAll
        body.forwarded = message.forwarded
        body.voice = message.voice
        return try encode(body)
    }

    /// The column text for `body`; nil (SQL `NULL`) when it holds nothing, as for every
    /// plain text message.
    package static func encode(_ body: Body) throws(StoreError) -> String? {
        guard !body.isEmpty else { return nil }
        do {
            return String(decoding: try JSONEncoder().encode(body), as: UTF8.self)
        } catch {
            throw StoreError.failure("cannot encode a message body as JSON")
        }
    }

    /// The parts in column text read from disk; text that does not decode is an error, not
    /// an empty body, so that damage is noticed.
    package static func decode(_ text: String?, messageID: Int64) throws(StoreError) -> Body {
        guard let text else { return Body() }
        do {
            return try JSONDecoder().decode(Body.self, from: Data(text.utf8))
        } catch {
            throw StoreError.failure("message \(messageID) has an unreadable body (not the expected JSON)")
        }
    }
}
