import Testing
@testable import ParleyXMPP

/// The origins of a user's recent messages: the newest `limit` kept, the oldest dropped first
/// (through the ring once full), and a client id noted again keeps its place.
@Suite struct RecentOriginsTests {
    @Test func keepsTheNewestAndDropsTheOldestFirst() {
        var origins = RecentOrigins<String>(limit: 3)
        for n in 1...3 { origins.note("r\(n)", for: "c\(n)") }
        #expect(origins.count == 3 && origins["c1"] == "r1" && origins["c3"] == "r3")
        // Twice round the ring: each new id drops the oldest left.
        for n in 4...9 {
            origins.note("r\(n)", for: "c\(n)")
            #expect(origins.count == 3)
            #expect(origins["c\(n - 3)"] == nil && origins["c\(n - 2)"] == "r\(n - 2)" && origins["c\(n)"] == "r\(n)")
        }
    }

    @Test func anIdNotedAgainTakesTheNewOriginAndKeepsItsPlace() {
        var origins = RecentOrigins<String>(limit: 2)
        origins.note("phone", for: "a")
        origins.note("laptop", for: "b")
        origins.note("tablet", for: "a")   // a retry of "a": still the oldest
        #expect(origins["a"] == "tablet" && origins.count == 2)
        origins.note("phone", for: "c")
        #expect(origins["a"] == nil && origins["b"] == "laptop" && origins["c"] == "phone")
    }

    @Test func keepsAtLeastOne() {
        var origins = RecentOrigins<Int>(limit: 0)
        origins.note(1, for: "a")
        origins.note(2, for: "b")
        #expect(origins.limit == 1 && origins.count == 1 && origins["a"] == nil && origins["b"] == 2)
    }

    /// Changed in place inside a dictionary, as the resource tables keep it, the state keeps
    /// what was noted (the value is not copied out and lost).
    @Test func changesInPlaceInsideATable() {
        var table: [Int: RecentOrigins<String>] = [:]
        for n in 1...5 { table[7, default: RecentOrigins(limit: 4)].note("r\(n)", for: "c\(n)") }
        #expect(table[7]?.count == 4 && table[7]?["c1"] == nil && table[7]?["c5"] == "r5")
    }
}
