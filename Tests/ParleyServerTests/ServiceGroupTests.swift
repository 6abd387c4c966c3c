import Foundation
import ParleySync
import Testing
@testable import ParleyServer

@Suite struct ServiceGroupTests {
    private struct StartFailed: Error {}

    /// What the parts did, in order.
    private final class Journal: Sendable {
        let entries = PThreadMutex<[String]>([])
        func note(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }
    }

    @Test func shutdownStopsInReverseOrderWithTheTimeout() throws {
        let journal = Journal()
        let group = ServiceGroup()
        for name in ["store", "pool", "loops"] {
            try group.start(name, { journal.note("start \(name)") },
                            stop: { _, timeout in journal.note("stop \(name) \(timeout)") })
        }
        #expect(group.running == ["store", "pool", "loops"])
        group.shutdown(timeout: .seconds(3))
        #expect(journal.all == ["start store", "start pool", "start loops",
                                "stop loops 3.0 seconds", "stop pool 3.0 seconds", "stop store 3.0 seconds"])
        #expect(group.running.isEmpty)
        group.shutdown(timeout: .seconds(3))
        #expect(journal.all.count == 6, "a second shutdown stopped parts again")
    }

    @Test func failingStartStopsTheEarlierPartsInReverse() throws {
        let journal = Journal()
        let group = ServiceGroup()
        try group.start("store", { 1 }, stop: { value, timeout in journal.note("stop store \(value) \(timeout)") })
        try group.start("pool", { 2 }, stop: { value, timeout in journal.note("stop pool \(value) \(timeout)") })
        #expect(throws: StartFailed.self) {
            try group.start("listener", { () throws -> Int in throw StartFailed() },
                            stop: { _, _ in journal.note("stop listener") })
        }
        #expect(journal.all == ["stop pool 2 0.0 seconds", "stop store 1 0.0 seconds"])
        #expect(group.running.isEmpty)
    }

    @Test func aFailureInsideANestedGroupStopsBothLevels() throws {
        let journal = Journal()
        let outer = ServiceGroup()
        try outer.start("store", {}, stop: { _, _ in journal.note("stop store") })
        #expect(throws: StartFailed.self) {
            try outer.start("listeners", {
                let listeners = ServiceGroup(stopOrder: .together)
                try listeners.start("http", {}, stop: { _, _ in journal.note("stop http") })
                try listeners.start("xmpp", { throw StartFailed() }, stop: { _, _ in journal.note("stop xmpp") })
                return listeners
            }, stop: { listeners, timeout in listeners.shutdown(timeout: timeout) })
        }
        #expect(journal.all == ["stop http", "stop store"])
    }

    @Test func togetherStopsThePartsAtTheSameTime() throws {
        let journal = Journal()
        let listeners = ServiceGroup(stopOrder: .together)
        let gate = DispatchSemaphore(value: 0)
        // The first part waits for the second to have started stopping: run one after the
        // other, this would never end, so the wait is bounded and the outcome checked.
        try listeners.start("http", {}, stop: { _, _ in
            let met = gate.wait(timeout: .now() + 5) == .success
            journal.note(met ? "http saw xmpp stopping" : "http waited alone")
        })
        try listeners.start("xmpp", {}, stop: { _, _ in
            journal.note("xmpp stopping")
            gate.signal()
        })
        listeners.shutdown(timeout: .seconds(1))
        #expect(Set(journal.all) == ["xmpp stopping", "http saw xmpp stopping"])
    }
}
