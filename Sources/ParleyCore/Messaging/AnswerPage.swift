import ParleyProtocol

/// One page of a list answer, bounded by a count and by encoded bytes, with the cursor that
/// continues it.
///
/// Why bytes as well as counts: an answer larger than a connection's queue bound cuts that
/// connection off, and other people choose what fills many lists (friend requests, room
/// occupants, discover cards). A page stops at the byte budget, so no list someone else can
/// grow ever makes an answer its reader cannot receive.
struct AnswerPage<Item: Sendable>: Sendable {
    /// The page, in the list's order.
    var items: [Item]
    /// The cursor of the next page, or nil when this page ends the list.
    var nextCursor: String?

    /// The page after `cursor` of `sorted` (stored rows ordered by `key`): at most `limit`
    /// rows are described (`describe` may drop rows, such as users since deleted), then the
    /// described items are cut to the first ones whose sizes fit `budget` (at least one:
    /// every item is far smaller than the queue bound).
    static func of<Row>(_ sorted: [Row], key: (Row) -> PageKey, after cursor: PageKey?, limit: Int, budget: Int,
                        describe: ([Row]) throws -> [(row: Row, item: Item)], size: (Item) -> Int) rethrows -> AnswerPage {
        let start = cursor.map { cursor in sorted.firstIndex { key($0) > cursor } ?? sorted.endIndex } ?? sorted.startIndex
        let window = Array(sorted[start...].prefix(max(1, limit)))
        let described = try describe(window)
        var used = 0
        var taken: [(row: Row, item: Item)] = []
        for entry in described {
            let bytes = size(entry.item)
            guard used + bytes <= budget || taken.isEmpty else { break }
            used += bytes
            taken.append(entry)
        }
        // The last row this page covers: a row dropped by `describe` after it is not lost,
        // it was never going to be shown.
        let last = taken.last.map { key($0.row) } ?? window.last.map(key)
        let more = last.map { last in sorted[start...].contains { key($0) > last } } ?? false
        return AnswerPage(items: taken.map(\.item), nextCursor: more ? last?.cursor : nil)
    }
}

/// A position in an ordered list: a number, then a text that breaks ties. Travels as
/// `"<number>"` or `"<number>:<text>"`, opaque to clients.
struct PageKey: Comparable {
    var number: Int64
    var tiebreak: String

    init(number: Int64, tiebreak: String = "") {
        self.number = number
        self.tiebreak = tiebreak
    }

    /// Parses a cursor a client sent back; `invalid_field` for anything else.
    init(cursor: String) throws(ProtocolError) {
        let parts = cursor.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard cursor.utf8.count <= 200, let number = Int64(parts[0]) else {
            throw ProtocolError(.invalidField, "unknown cursor", field: "cursor")
        }
        self.number = number
        tiebreak = parts.count > 1 ? String(parts[1]) : ""
    }

    /// The key as a cursor for clients.
    var cursor: String { tiebreak.isEmpty ? String(number) : "\(number):\(tiebreak)" }

    static func < (a: PageKey, b: PageKey) -> Bool {
        a.number != b.number ? a.number < b.number : a.tiebreak < b.tiebreak
    }

    static func parse(_ cursor: String?) throws(ProtocolError) -> PageKey? {
        guard let cursor else { return nil }
        return try PageKey(cursor: cursor)
    }
}
