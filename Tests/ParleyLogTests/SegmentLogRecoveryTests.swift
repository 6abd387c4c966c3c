import Foundation
import ParleyLog
import Testing

/// The segment log's recovery: torn tails cut off at every byte, damaged records, segments
/// rolled, and the checkpoint.
@Suite struct SegmentLogRecoveryTests {
    private func segmentPath(_ directory: String, _ number: Int) -> String {
        let digits = String(number)
        return directory + "/" + String(repeating: "0", count: 20 - digits.count) + digits + ".log"
    }

    private func size(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? -1
    }

    @Test func truncatingTheLastRecordAtEveryByteRecoversToThePreviousRecord() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let log = try SegmentLog(directory: directory.path)
        try log.append([record(1, 1), record(2, 1), record(1, 2)])
        let before = try size(segmentPath(directory.path, 1))
        try log.append([record(1, 3, size: 100)])
        log.close()
        let path = segmentPath(directory.path, 1)
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        let lastRecordSize = whole.count - before
        #expect(lastRecordSize == 24 + 100)
        for cut in 1...lastRecordSize {
            try whole.prefix(whole.count - cut).write(to: URL(fileURLWithPath: path))
            let reopened = try SegmentLog(directory: directory.path)
            #expect(reopened.recovery.truncatedBytes == lastRecordSize - cut)
            #expect(try reopened.lastSeq(of: 1) == 2, "cut \(cut) bytes")
            #expect(try reopened.records(of: 1, after: 0, limit: 10) == [record(1, 1), record(1, 2)])
            #expect(try reopened.records(of: 2, after: 0, limit: 10) == [record(2, 1)])
            #expect(try size(path) == before)
            reopened.close()
        }
        // After the cut the log takes the lost seq again.
        let reopened = try SegmentLog(directory: directory.path)
        try reopened.append([record(1, 3)])
        #expect(try reopened.records(of: 1, after: 2, limit: 10) == [record(1, 3)])
        reopened.close()
    }

    @Test func aDamagedTailRecordAndZerosAfterItAreCutOff() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let log = try SegmentLog(directory: directory.path)
        try log.append([record(1, 1)])
        try log.append([record(1, 2)])
        log.close()
        let path = segmentPath(directory.path, 1)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        // One bit flipped in the last record's payload, and a zero-filled tail after it.
        bytes[bytes.count - 5] ^= 0x10
        bytes.append(Data(repeating: 0, count: 4096))
        try bytes.write(to: URL(fileURLWithPath: path))
        let reopened = try SegmentLog(directory: directory.path)
        defer { reopened.close() }
        #expect(try reopened.lastSeq(of: 1) == 1)
        #expect(reopened.recovery.truncatedBytes == 24 + 64 + 4096)
    }

    @Test func damageBeforeTheLastSegmentIsRefused() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let options = MessageLogOptions(segmentBytes: 512)
        let log = try SegmentLog(directory: directory.path, options: options)
        for seq in 1...20 { try log.append([record(3, UInt64(seq))]) }
        log.close()
        #expect(FileManager.default.fileExists(atPath: segmentPath(directory.path, 2)))
        // Rolled segments reopen whole.
        let reopened = try SegmentLog(directory: directory.path, options: options)
        #expect(try reopened.records(of: 3, after: 0, limit: 100).map(\.seq) == Array(1...20))
        #expect(reopened.recovery.segments > 2)
        reopened.close()
        let first = segmentPath(directory.path, 1)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: first))
        bytes[40] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: first))
        #expect(throws: LogError.self) { try SegmentLog(directory: directory.path, options: options) }
    }

    @Test func aCheckpointIsUsedAndTheRecordsAfterItAreScanned() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let log = try SegmentLog(directory: directory.path)
        try log.append([record(1, 1), record(2, 1)])
        try log.checkpoint()
        try log.append([record(1, 2), record(3, 1)])
        log.close()
        let reopened = try SegmentLog(directory: directory.path)
        #expect(reopened.recovery.usedCheckpoint)
        #expect(reopened.recovery.records == 4)
        #expect(try reopened.records(of: 1, after: 0, limit: 10) == [record(1, 1), record(1, 2)])
        #expect(try reopened.conversations() == [1, 2, 3])
        reopened.close()
        // A damaged checkpoint is ignored: the log is scanned whole.
        let checkpoint = directory.path + "/index.checkpoint"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: checkpoint))
        bytes[10] ^= 0x01
        try bytes.write(to: URL(fileURLWithPath: checkpoint))
        let scanned = try SegmentLog(directory: directory.path)
        defer { scanned.close() }
        #expect(!scanned.recovery.usedCheckpoint)
        #expect(try scanned.records(of: 1, after: 0, limit: 10) == [record(1, 1), record(1, 2)])
    }
}
