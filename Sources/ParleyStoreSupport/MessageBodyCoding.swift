import FoundationEssentials
package import ParleyCore
package import ParleyProtocol

/// How a message's structured parts are kept in one column by every store: a JSON object with the
/// image attachment and/or the system notice. Neither is ever searched by SQL, and JSON lets
/// both types gain fields without a migration.
package enum MessageBodyCoding {
    /// The parts of a message that live in `body`.
    package struct Body: Codable, Equatable {
        package var image: ImageAttachment?
        package var system: SystemNotice?
    }

    /// The column text for `image` and `system`; nil (SQL `NULL`) when there is neither, as
    /// for every text message.
    package static func encode(image: ImageAttachment?, system: SystemNotice?) throws(StoreError) -> String? {
        guard image != nil || system != nil else { return nil }
        do {
            return String(decoding: try JSONEncoder().encode(Body(image: image, system: system)), as: UTF8.self)
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
