/// A list that keeps its first element inline and allocates only for a second: the hub's
/// connections of one user, where most users have one and an array of one is a heap object of
/// its own (48 bytes and malloc's header, for every signed-in user); and an event's recipients,
/// where most events reach one connection.
///
/// Invariant: `first` is nil only when the list is empty (`rest` is then empty too).
struct InlineFirstList<Element>: RandomAccessCollection, ExpressibleByArrayLiteral {
    private var first: Element?
    /// The elements after the first.
    private var rest: [Element] = []

    init() {}

    init(arrayLiteral elements: Element...) {
        for element in elements { append(element) }
    }

    var startIndex: Int { 0 }
    var endIndex: Int { first == nil ? 0 : 1 + rest.count }

    subscript(position: Int) -> Element {
        if position == 0, let first { return first }
        return rest[position - 1]
    }

    mutating func append(_ element: Element) {
        if first == nil {
            first = element
        } else {
            rest.append(element)
        }
    }

    /// Changes the element at `position` in place (no copy of it to write back: an element
    /// that holds an array appends to it without copying the array).
    mutating func update<Result>(at position: Int, _ body: (inout Element) throws -> Result) rethrows -> Result {
        precondition(position >= 0 && position < endIndex, "index out of range")
        if position == 0 { return try body(&first!) }
        return try body(&rest[position - 1])
    }

    /// Whether `predicate` holds for an element, each lent in place rather than copied out.
    /// Called on a list kept in a dictionary (`table[key]?.containsInPlace { … }`), the
    /// dictionary lends the list itself too, where its getter copies the list and every
    /// element read from it is copied again: a retain and a release for each, on every pass
    /// over a user's connections (docs/benchmarks.md, (ae) and (ah)).
    mutating func containsInPlace(where predicate: (inout Element) throws -> Bool) rethrows -> Bool {
        guard first != nil else { return false }
        if try predicate(&first!) { return true }
        // The loop below makes `rest` unique before it starts, even when it is empty (the
        // shared empty array is never unique: a call that copies nothing, for every user of a
        // delivery's pass, docs/benchmarks.md (aq)), so a list of one stops here.
        guard !rest.isEmpty else { return false }
        for index in rest.indices where try predicate(&rest[index]) { return true }
        return false
    }

    /// Calls `body` with each element in order, lent in place (see `containsInPlace`).
    mutating func forEachInPlace(_ body: (inout Element) throws -> Void) rethrows {
        _ = try containsInPlace { element in
            try body(&element)
            return false
        }
    }

    /// Makes room for `capacity` elements in all, so that appending up to them allocates once.
    mutating func reserveCapacity(_ capacity: Int) {
        rest.reserveCapacity(capacity - 1)
    }

    mutating func remove(at position: Int) {
        precondition(position >= 0 && position < endIndex, "index out of range")
        if position == 0 {
            first = rest.isEmpty ? nil : rest.removeFirst()
        } else {
            rest.remove(at: position - 1)
        }
    }

    mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
        guard let first else { return }
        if rest.isEmpty {
            if try shouldBeRemoved(first) { self.first = nil }
            return
        }
        var kept = InlineFirstList()
        for element in self where !(try shouldBeRemoved(element)) { kept.append(element) }
        self = kept
    }
}

extension InlineFirstList: Sendable where Element: Sendable {}
