/// Where each conversation's records lie: for a conversation, the position of its record
/// with seq `firstSeq + i` at `positions[i]` (seqs have no gaps, so no search). A position
/// is the segment number in the high 24 bits and the offset in the low 40.
struct SegmentIndex: Sendable, Equatable {
    /// One conversation's records.
    struct Entry: Sendable, Equatable {
        var firstSeq: UInt64
        var positions: [UInt64]
        var lastSeq: UInt64 { firstSeq + UInt64(positions.count) - 1 }
    }

    private(set) var entries: [UInt64: Entry] = [:]

    static func position(segment: UInt64, offset: Int) -> UInt64 { segment << 40 | UInt64(offset) }
    static func segment(of position: UInt64) -> UInt64 { position >> 40 }
    static func offset(of position: UInt64) -> Int { Int(position & (1 << 40 - 1)) }

    /// Notes `seq` of `conversation` at `position`; false if it does not continue the
    /// conversation (recovery treats that as damage). With `startsAnywhere`, the first
    /// record of a conversation may have any seq (see `MessageLogOptions.startsAnywhere`).
    mutating func add(conversation: UInt64, seq: UInt64, position: UInt64, startsAnywhere: Bool = false) -> Bool {
        if var entry = entries[conversation] {
            guard seq == entry.lastSeq + 1 else { return false }
            entry.positions.append(position)
            entries[conversation] = entry
        } else {
            guard seq == 1 || (startsAnywhere && seq > 0) else { return false }
            entries[conversation] = Entry(firstSeq: seq, positions: [position])
        }
        return true
    }

    /// Puts a whole entry back (loading a checkpoint).
    mutating func restore(conversation: UInt64, entry: Entry) {
        entries[conversation] = entry
    }

    /// Forgets every position in a segment numbered below `segment` (those segments are
    /// being deleted); a conversation left without records is forgotten whole.
    mutating func drop(before segment: UInt64) {
        for (conversation, entry) in entries {
            let kept = entry.positions.drop { Self.segment(of: $0) < segment }
            if kept.count == entry.positions.count { continue }
            if kept.isEmpty {
                entries[conversation] = nil
            } else {
                entries[conversation] = Entry(firstSeq: entry.firstSeq + UInt64(entry.positions.count - kept.count), positions: Array(kept))
            }
        }
    }

    func lastSeq(of conversation: UInt64) -> UInt64 { entries[conversation]?.lastSeq ?? 0 }

    /// Positions of up to `limit` records after `seq`, with their seqs.
    func positions(of conversation: UInt64, after seq: UInt64, limit: Int) -> [(seq: UInt64, position: UInt64)] {
        guard let entry = entries[conversation], limit > 0 else { return [] }
        let first = max(seq + 1, entry.firstSeq)
        guard first <= entry.lastSeq else { return [] }
        let last = min(entry.lastSeq, first + UInt64(limit) - 1)
        return (first...last).map { ($0, entry.positions[Int($0 - entry.firstSeq)]) }
    }
}
