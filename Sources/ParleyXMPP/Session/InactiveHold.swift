import ParleyCore

/// What a stream holds back while its client says it is inactive (XEP-0352): presence, the
/// newest per sender (older ones are out of date by then), in the order the senders first
/// changed. At most one stanza per contact or resource, so it stays small.
struct InactiveHold {
    /// Whether the client is active (the default until it says otherwise).
    var active = true
    private var held: [String: String] = [:]
    private var order: [String] = []

    /// Holds `text`, a presence from `from`, in place of any held before from the same JID.
    mutating func hold(_ text: String, from: String) {
        if held.updateValue(text, forKey: from) == nil { order.append(from) }
    }

    /// The client is active again: what was held, in order, and nothing held any more.
    mutating func activate() -> [String] {
        active = true
        let texts = order.compactMap { held[$0] }
        held = [:]
        order = []
        return texts
    }

    /// Whether a forwarded message carries chat states only (no receipt, nothing else),
    /// which an inactive client does not need (they are out of date when it looks).
    static func isOnlyChatState(_ forwarded: ForwardedStanza) -> Bool {
        forwarded.stanza == nil && forwarded.children.contains(Namespace.chatStates) && !forwarded.children.contains(Namespace.receipts)
            && !forwarded.children.contains(Namespace.chatMarkers)
            && !forwarded.children.contains("<body")
    }
}
