import CParleySystem

/// The chunks a connection has queued for its peer and not yet written, in order.
///
/// A connection mostly has one frame to write per turn (a fan-out delivers one event to many
/// connections), so the first chunk is kept inline and costs no allocation; a second one
/// moves both into a ring buffer. Each chunk is released as soon as its last byte is written,
/// not when the whole queue drains: a large answer stuck behind a slow peer does not keep
/// the chunks before it alive. A drained queue gives its ring back, so an idle connection
/// keeps no write buffer: the smallest rings go to the loop's `SpareRings` for the next
/// connection that needs one (a flush with two events or more would otherwise make and free
/// one every time, ≈ 8 % of a group delivery on the loops; docs/benchmarks.md, (ae)).
struct PendingWrites {
    /// Empty rings of the smallest capacity that drained queues gave back, kept by an event
    /// loop for its connections (loop thread only), at most `limit` of them.
    struct SpareRings {
        /// The most rings kept; a ring given back beyond it is freed.
        let limit: Int
        fileprivate var rings: [[Entry?]] = []

        /// The number of rings kept now.
        var count: Int { rings.count }

        init(limit: Int) {
            self.limit = max(0, limit)
        }

        /// A ring of `PendingWrites.smallestRing` empty slots: a kept one, else a new one.
        fileprivate mutating func take() -> [Entry?] {
            rings.popLast() ?? [Entry?](repeating: nil, count: PendingWrites.smallestRing)
        }

        /// Keeps `ring` (every slot empty) if it is of the smallest capacity and there is room.
        fileprivate mutating func giveBack(_ ring: inout [Entry?]) {
            var taken: [Entry?] = []
            swap(&taken, &ring)
            if taken.count == PendingWrites.smallestRing && rings.count < limit {
                rings.append(taken)
            }
        }
    }

    /// The capacity of a new ring, in chunks; only rings of this size are kept as spares.
    static let smallestRing = 8

    /// One queued chunk and how much of it has been written.
    fileprivate struct Entry {
        let chunk: ByteChunk
        var offset: Int

        /// What is left of it, for `writev`.
        var unwritten: iovec {
            // A chunk always has storage (it allocates at least one byte), so the address is
            // there; the bytes are only read.
            iovec(iov_base: UnsafeMutableRawPointer(mutating: chunk.baseAddress.map { $0 + offset }),
                  iov_len: chunk.count - offset)
        }
    }

    /// The only chunk queued, kept inline. Invariant: when set, `ring` holds nothing.
    private var lone: Entry?
    /// Chunks when there is more than one, from `head` on, `count` of them; the capacity is
    /// a power of two (or zero), and every slot outside the live range is nil.
    private var ring: [Entry?] = []
    private var head = 0
    private var count = 0
    /// Bytes queued and not yet written.
    private(set) var bytes = 0

    /// True when nothing is waiting to be written.
    var isEmpty: Bool { lone == nil && count == 0 }

    /// The number of chunks waiting, partly written ones included.
    var chunkCount: Int { lone == nil ? count : 1 }

    /// The ring's capacity in chunks: 0 while the lone write (or nothing) is queued.
    var ringCapacity: Int { ring.count }

    /// Queues `chunk` after everything queued before it, a ring taken from `spares` when
    /// it is the second. Empty chunks are not queued.
    mutating func append(_ chunk: ByteChunk, spares: inout SpareRings) {
        guard chunk.count > 0 else { return }
        bytes += chunk.count
        if lone == nil && count == 0 {
            lone = Entry(chunk: chunk, offset: 0)
            return
        }
        if let first = lone {
            lone = nil
            if ring.isEmpty { ring = spares.take() }
            push(first)
        }
        push(Entry(chunk: chunk, offset: 0))
    }

    /// Writes into `iovecs` what is left of the first chunks, at most `limit` of them, and
    /// returns how many it wrote.
    func gather(into iovecs: UnsafeMutablePointer<iovec>, limit: Int) -> Int {
        if let lone {
            iovecs[0] = lone.unwritten
            return 1
        }
        let mask = ring.count - 1
        var gathered = 0
        while gathered < count && gathered < limit {
            guard let entry = ring[(head + gathered) & mask] else { break }
            iovecs[gathered] = entry.unwritten
            gathered += 1
        }
        return gathered
    }

    /// Moves past `written` bytes, releasing each chunk whose last byte they include; a
    /// drained ring goes back to `spares`.
    mutating func advance(by written: Int, spares: inout SpareRings) {
        precondition(written >= 0 && written <= bytes, "PendingWrites advanced past what was queued")
        bytes -= written
        if var entry = lone {
            entry.offset += written
            lone = entry.offset < entry.chunk.count ? entry : nil
            return
        }
        var remaining = written
        let mask = ring.count - 1
        while remaining > 0, count > 0, var entry = ring[head] {
            let left = entry.chunk.count - entry.offset
            if remaining >= left {
                remaining -= left
                ring[head] = nil  // the chunk goes now, not when the queue drains
                head = (head + 1) & mask
                count -= 1
            } else {
                entry.offset += remaining
                ring[head] = entry
                remaining = 0
            }
        }
        if count == 0 {
            spares.giveBack(&ring)  // every slot is empty: each was cleared as it was written
            head = 0
        }
    }

    /// Drops everything queued, written or not (a connection closed at once); the ring,
    /// which may still hold chunks, is freed rather than kept.
    mutating func removeAll() {
        lone = nil
        ring = []
        head = 0
        count = 0
        bytes = 0
    }

    private mutating func push(_ entry: Entry) {
        if count == ring.count { grow() }
        ring[(head + count) & (ring.count - 1)] = entry
        count += 1
    }

    /// Doubles the ring, laying the live entries out from slot 0.
    private mutating func grow() {
        let capacity = max(Self.smallestRing, ring.count * 2)
        var larger = [Entry?](repeating: nil, count: capacity)
        let mask = ring.count - 1
        for index in 0..<count {
            larger[index] = ring[(head + index) & mask]
        }
        ring = larger
        head = 0
    }
}
