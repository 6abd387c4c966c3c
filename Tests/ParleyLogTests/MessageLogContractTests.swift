import Foundation
import ParleyLog
import Testing

/// What every `MessageLog` promises, run on each engine.
@Suite struct MessageLogContractTests {
    @Test(arguments: Engine.allCases)
    func appendedRecordsReadBackInOrderAndAfterReopening(engine: Engine) throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        do {
            let log = try engine.open(directory.path)
            try log.append([record(7, 1), record(7, 2), record(9, 1)])
            try log.append([record(7, 3)])
            #expect(try log.lastSeq(of: 7) == 3)
            #expect(try log.lastSeq(of: 9) == 1)
            #expect(try log.lastSeq(of: 8) == 0)
            // Before the first conversation, after the last, and at the end of the id range.
            #expect(try log.lastSeq(of: 1) == 0)
            #expect(try log.lastSeq(of: 10) == 0)
            #expect(try log.lastSeq(of: .max) == 0)
            #expect(try log.records(of: 7, after: 1, limit: 10) == [record(7, 2), record(7, 3)])
            #expect(try log.records(of: 7, after: 0, limit: 2) == [record(7, 1), record(7, 2)])
            #expect(try log.conversations() == [7, 9])
            #expect(log.statistics.records == 4)
            #expect(log.statistics.syncs == 2)
            log.close()
            #expect(throws: LogError.closed) { try log.append([record(7, 4)]) }
        }
        let reopened = try engine.open(directory.path)
        defer { reopened.close() }
        #expect(try reopened.records(of: 7, after: 0, limit: 10) == [record(7, 1), record(7, 2), record(7, 3)])
        #expect(try reopened.records(of: 9, after: 0, limit: 10) == [record(9, 1)])
        // Appending carries on where the log left off.
        try reopened.append([record(9, 2)])
        #expect(try reopened.lastSeq(of: 9) == 2)
    }

    @Test(arguments: Engine.allCases)
    func gapsAndOversizedPayloadsAreRefusedAndAddNothing(engine: Engine) throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let log = try engine.open(directory.path)
        defer { log.close() }
        #expect(throws: LogError.sequenceGap(conversation: 1, expected: 1, got: 2)) { try log.append([record(1, 2)]) }
        try log.append([record(1, 1)])
        // The whole call is refused: record 2 is not added although it would continue.
        #expect(throws: LogError.sequenceGap(conversation: 1, expected: 3, got: 4)) { try log.append([record(1, 2), record(1, 4)]) }
        #expect(try log.lastSeq(of: 1) == 1)
        #expect(throws: LogError.payloadTooLarge(bytes: 64 * 1024 + 1, limit: 64 * 1024)) {
            try log.append([record(1, 2, size: 64 * 1024 + 1)])
        }
        try log.append([record(1, 2)])
        #expect(try log.lastSeq(of: 1) == 2)
    }

    @Test(arguments: Engine.allCases)
    func concurrentAppendersShareSyncs(engine: Engine) throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let log = try engine.open(directory.path)
        defer { log.close() }
        let writers = 8, perWriter = 50
        let failures = DispatchQueue(label: "failures")
        nonisolated(unsafe) var errors: [String] = []
        DispatchQueue.concurrentPerform(iterations: writers) { writer in
            for seq in 1...perWriter {
                do {
                    try log.append([record(UInt64(writer), UInt64(seq))])
                } catch {
                    failures.sync { errors.append("\(error)") }
                }
            }
        }
        #expect(errors.isEmpty)
        #expect(log.statistics.records == writers * perWriter)
        // Appends that waited for a sync in progress went out together in the next one.
        #expect(log.statistics.syncs <= writers * perWriter)
        for writer in 0..<writers {
            let records = try log.records(of: UInt64(writer), after: 0, limit: 1000)
            #expect(records.map(\.seq) == Array(1...UInt64(perWriter)))
            #expect(records.allSatisfy { $0.payload == payload($0.conversation, $0.seq) })
        }
    }
}
