import Foundation
import ParleyLog
import Testing

/// Dropping segments whose records another store now holds, and a log that may start a
/// conversation anywhere (`MessageLogOptions.startsAnywhere`).
@Suite struct SegmentLogRetentionTests {
    private let options = MessageLogOptions(segmentBytes: 1_024, startsAnywhere: true)

    @Test func onlyTheStrictLogRefusesAConversationStartingPastOne() throws {
        let directory = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
        defer { directory.remove() }
        let strict = try SegmentLog(directory: directory.path + "/strict")
        #expect(throws: LogError.sequenceGap(conversation: 1, expected: 1, got: 5)) { try strict.append([record(1, 5)]) }
        strict.close()
        let lenient = try SegmentLog(directory: directory.path + "/lenient", options: options)
        try lenient.append([record(1, 5), record(1, 6)])
        // Once started, it continues without gaps.
        #expect(throws: LogError.sequenceGap(conversation: 1, expected: 7, got: 9)) { try lenient.append([record(1, 9)]) }
        lenient.close()
        let reopened = try SegmentLog(directory: directory.path + "/lenient", options: options)
        defer { reopened.close() }
        #expect(try reopened.lastSeq(of: 1) == 6)
        #expect(try reopened.records(of: 1, after: 0, limit: 10) == [record(1, 5), record(1, 6)])
    }

    @Test func completeSegmentsAreDroppedAndTheRestStillOpens() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let log = try SegmentLog(directory: directory.path, options: options)
        for seq in 1...40 { try log.append([record(1, UInt64(seq), size: 100), record(2, UInt64(seq), size: 100)]) }
        let before = log.segmentCount
        #expect(before > 3)
        #expect(try log.dropCompleteSegments() == before - 1)
        #expect(log.segmentCount == 1)
        #expect(try log.dropCompleteSegments() == 0)
        // What is left is the tail of each conversation, and appends continue it.
        let kept = try log.records(of: 1, after: 0, limit: 100)
        #expect(kept.last == record(1, 40, size: 100))
        #expect(kept.count < 40)
        try log.append([record(1, 41, size: 100)])
        #expect(throws: LogError.sequenceGap(conversation: 2, expected: 41, got: 43)) { try log.append([record(2, 43)]) }
        log.close()

        let reopened = try SegmentLog(directory: directory.path, options: options)
        defer { reopened.close() }
        #expect(try reopened.records(of: 1, after: 0, limit: 100) == kept + [record(1, 41, size: 100)])
        #expect(try reopened.lastSeq(of: 2) == 40)
    }
}
