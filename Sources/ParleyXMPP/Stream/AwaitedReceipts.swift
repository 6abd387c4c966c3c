import ParleyProtocol

/// The 1:1 messages a user's Jabber clients sent that asked for a delivery receipt
/// (XEP-0184) or are markable (XEP-0333), by conversation and sequence number, so that the
/// native peer's delivered and read markers (`conversation.receipt`) can be answered with
/// `<received/>` and `<displayed/>` naming the stanza id each message was sent with.
///
/// Bounded: the newest `limit` messages per user are kept. Nothing is stored: a receipt
/// that comes after the user's last stream on this server ended is not rendered (XMPP
/// receipts are not kept for offline clients either).
struct AwaitedReceipts: Sendable {
    /// One sent message that asked for something.
    struct Sent: Sendable, Equatable {
        var conversation: ConversationID
        var seq: Int64
        var stanzaID: String
        var receipt: Bool
        var markable: Bool
    }

    /// What a marker move answers: the stanza ids to acknowledge as received, oldest first,
    /// and the one to mark displayed (the newest markable message the read marker passed).
    struct Answer: Sendable, Equatable {
        var received: [String] = []
        var displayed: String?

        /// The answer as body-less chat messages from the peer to one of the user's streams:
        /// one `<received/>` per message (XEP-0184 §5), one `<displayed/>` (XEP-0333).
        func stanzas(from peer: JID, to stream: JID) -> [XMLElement] {
            func message(_ marker: XMLElement) -> XMLElement {
                XMLElement("message", ["type": "chat", "from": peer.description, "to": stream.description], children: [marker])
            }
            var stanzas = received.map { message(XMLElement("received", namespace: Namespace.receipts, ["id": $0])) }
            if let displayed {
                stanzas.append(message(XMLElement("displayed", namespace: Namespace.chatMarkers, ["id": displayed])))
            }
            return stanzas
        }
    }

    let limit: Int
    /// Oldest first (sends are recorded in the order they were stored, nearly).
    private var sent: [Sent] = []
    /// The peer's markers last seen per conversation, for a message whose send returns
    /// after its receipt came (the delivered marker moves off the send's own write).
    private var seen: [ConversationID: (delivered: Int64, read: Int64)] = [:]

    init(limit: Int) {
        self.limit = limit
    }

    /// Records a stored message that asked for a receipt or is markable; others are not
    /// kept. Returns the answer at once if the peer's markers passed it already.
    mutating func record(_ message: Sent) -> Answer {
        guard message.receipt || message.markable, limit > 0 else { return Answer() }
        sent.append(message)
        if sent.count > limit { sent.removeFirst(sent.count - limit) }
        guard let markers = seen[message.conversation], max(markers.delivered, markers.read) >= message.seq else { return Answer() }
        return answer(in: message.conversation, delivered: markers.delivered, read: markers.read > 0 ? markers.read : nil)
    }

    /// The answer to the peer's markers moving to `delivered` and `read` in `conversation`
    /// (either may be nil: not moved, or read receipts not shared). Each message is answered
    /// once: one received and at most one displayed, then it is forgotten (a displayed
    /// marker covers the messages before it, XEP-0333 §3).
    mutating func answer(in conversation: ConversationID, delivered: Int64?, read: Int64?) -> Answer {
        var answer = Answer()
        // Read implies delivered.
        let reached = max(delivered ?? 0, read ?? 0)
        guard reached > 0 else { return answer }
        let before = seen[conversation] ?? (0, 0)
        // Bounded like the messages: an unknown conversation beyond the limit starts afresh.
        if before == (0, 0) && seen.count >= limit { seen.removeAll() }
        seen[conversation] = (max(before.delivered, reached), max(before.read, read ?? 0))
        var displayedSeq: Int64 = 0
        var kept: [Sent] = []
        kept.reserveCapacity(sent.count)
        for var message in sent {
            guard message.conversation == conversation, message.seq <= reached else {
                kept.append(message)
                continue
            }
            if message.receipt {
                answer.received.append(message.stanzaID)
                message.receipt = false
            }
            if let read, message.seq <= read, message.markable {
                if message.seq > displayedSeq {
                    answer.displayed = message.stanzaID
                    displayedSeq = message.seq
                }
                message.markable = false
            }
            if message.markable { kept.append(message) }
        }
        sent = kept
        return answer
    }
}
