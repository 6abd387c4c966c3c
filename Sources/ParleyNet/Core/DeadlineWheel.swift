/// The connections' deadlines of one loop (idle, write stall, linger, and their handlers'
/// own: a WebSocket's ping and close), as a hashed wheel of coarse ticks.
///
/// A connection is filed under one deadline, its earliest, in the bucket of the tick at or
/// after it; when the loop reaches that tick it asks the connection, which acts on what is
/// due and files itself again under its next deadline. Nothing moves on a read or a write:
/// a deadline that moved later (new input) is found out when the old one comes, so an idle
/// connection costs one wheel entry and one visit per period, with no timer object or
/// closure of its own.
///
/// Deadlines are kept to `tickNanoseconds`: a deadline is never acted on early, and at most
/// one tick late (plus the loop's turn). Deadlines further out than the wheel's span
/// (`bucketCount` ticks) are looked at once a lap and stay filed. Loop thread only.
struct DeadlineWheel {
    /// Where a connection is filed: its bucket and its index in it.
    struct Slot {
        var bucket: UInt32
        var index: UInt32

        /// Not filed (a bucket number the wheel never has).
        static let none = Slot(bucket: .max, index: .max)

        /// Whether this names a place in the wheel.
        var isFiled: Bool { bucket != Self.none.bucket }
    }

    /// The granularity of every connection deadline: 50 ms, well under the shortest
    /// timeout the server takes (seconds) and coarse enough that an idle loop wakes rarely.
    static let tickNanoseconds: UInt64 = 50_000_000
    /// Buckets in the wheel (a power of two): 2,048 ticks of 50 ms, a lap of ≈ 102 s.
    static let bucketCount = 2048
    private static let bucketMask = UInt64(bucketCount - 1)

    private var buckets: [[TCPConnection]]
    /// Every tick before this one was processed.
    private var currentTick: UInt64
    /// The first tick whose bucket holds something, when known; recomputed on demand.
    private var dueTick: UInt64?
    /// Connections filed.
    private(set) var count = 0

    init(now: UInt64) {
        buckets = Array(repeating: [], count: Self.bucketCount)
        currentTick = now / Self.tickNanoseconds
    }

    /// Files `connection` under `deadline`, moving it if it was filed before.
    mutating func file(_ connection: TCPConnection, at deadline: UInt64) {
        remove(connection)
        // Rounded up: the bucket's tick is never before the deadline.
        let tick = max((deadline / Self.tickNanoseconds) &+ (deadline % Self.tickNanoseconds == 0 ? 0 : 1), currentTick)
        let bucket = Int(tick & Self.bucketMask)
        connection.wheelSlot = Slot(bucket: UInt32(bucket), index: UInt32(buckets[bucket].count))
        connection.filedDeadline = deadline
        buckets[bucket].append(connection)
        if count == 0 {
            dueTick = tick
        } else if let due = dueTick {
            dueTick = min(due, tick)
        }
        count += 1
    }

    /// Takes `connection` out of the wheel; O(1): the bucket's last entry takes its place.
    mutating func remove(_ connection: TCPConnection) {
        let slot = connection.wheelSlot
        guard slot.isFiled else { return }
        connection.wheelSlot = .none
        let bucket = Int(slot.bucket)
        let last = buckets[bucket].removeLast()
        if last !== connection {
            buckets[bucket][Int(slot.index)] = last
            last.wheelSlot = slot
        }
        if buckets[bucket].isEmpty { buckets[bucket] = [] }  // a bucket emptied keeps no buffer
        count -= 1
    }

    /// When the loop should wake for the next bucket that holds something; nil when empty.
    mutating func nextWake() -> UInt64? {
        guard count > 0 else { return nil }
        if dueTick == nil {
            var tick = currentTick
            while buckets[Int(tick & Self.bucketMask)].isEmpty { tick &+= 1 }
            dueTick = tick
        }
        return dueTick.map { $0 &* Self.tickNanoseconds }
    }

    /// Takes out the connections whose filed deadline is at or before `now`, appending them
    /// to `due` (the caller asks each one after this returns: asking may file it again).
    mutating func takeDue(now: UInt64, into due: inout [TCPConnection]) {
        let nowTick = now / Self.tickNanoseconds
        guard nowTick >= currentTick else { return }
        defer { currentTick = nowTick &+ 1 }
        guard count > 0 else { return }
        if let tick = dueTick, tick > nowTick { return }
        let ticks = min(nowTick - currentTick + 1, UInt64(Self.bucketCount))
        for step in 0..<ticks {
            let bucket = Int((currentTick &+ step) & Self.bucketMask)
            var index = 0
            while index < buckets[bucket].count {
                let connection = buckets[bucket][index]
                if connection.filedDeadline <= now {
                    remove(connection)  // the last entry moves to `index`
                    due.append(connection)
                } else {
                    index += 1
                }
            }
        }
        dueTick = nil
    }
}
