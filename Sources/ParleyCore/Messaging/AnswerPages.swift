public import ParleyProtocol

/// Every page of a paged list, for a gateway that sends each entry as a message of its own
/// (an XMPP roster or room presence), where no single answer grows with the list.
public enum AnswerPages {
    /// The entries of every page: `page` gets the cursor (nil for the first) and returns its
    /// entries and the next cursor (nil on the last).
    public static func collect<Item>(_ page: (String?) async throws(ProtocolError) -> (items: [Item], next: String?))
        async throws(ProtocolError) -> [Item] {
        var items: [Item] = []
        var cursor: String?
        repeat {
            let next = try await page(cursor)
            items += next.items
            cursor = next.next
        } while cursor != nil
        return items
    }
}
