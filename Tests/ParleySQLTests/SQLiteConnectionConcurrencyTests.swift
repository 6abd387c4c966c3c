import Foundation
import Testing
@testable import ParleySQL

/// Several connections on one file, each used by its own thread, as the store will do.
@Suite struct SQLiteConnectionConcurrencyTests {
    private func makeDatabase(_ directory: TemporaryDirectory) throws -> String {
        let path = directory.file("shared.sqlite")
        let setup = try SQLiteConnection(path: path)
        #expect(try setup.setJournalMode(.wal) == .wal)
        try setup.execute("CREATE TABLE events (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
        return path
    }

    private func count(_ connection: SQLiteConnection) throws -> Int {
        try connection.queryFirst("SELECT count(*) FROM events") { try $0.int(0) } ?? -1
    }

    @Test func readersSeeCommittedDataWhileAWriterHoldsTheLock() throws {
        let directory = try TemporaryDirectory()
        let path = try makeDatabase(directory)
        let writer = try SQLiteConnection(path: path)
        let reader = try SQLiteConnection(path: path)
        let impatient = try SQLiteConnection(path: path)
        let patient = try SQLiteConnection(path: path)
        patient.busyTimeout = .seconds(10)

        let locked = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let thread = BackgroundThread {
            try writer.transaction(kind: .immediate) {
                try writer.run("INSERT INTO events (body) VALUES (?)", "from the writer")
                locked.signal()
                release.wait()
            }
        }
        locked.wait()

        // WAL: the reader does not wait, and sees only what was committed.
        #expect(try count(reader) == 0)
        // With no busy timeout, a second writer fails at once with SQLITE_BUSY.
        let busy = try #require(throws: SQLiteError.self) {
            try impatient.transaction(kind: .immediate) {}
        }
        #expect(busy.isBusy)

        // With a timeout, it waits for the first writer to commit and then goes ahead.
        let waiter = BackgroundThread {
            try patient.transaction(kind: .immediate) {
                _ = try patient.run("INSERT INTO events (body) VALUES (?)", "from the patient writer")
            }
        }
        Thread.sleep(forTimeInterval: 0.1)
        release.signal()
        try thread.join()
        try waiter.join()
        #expect(try count(reader) == 2)
    }

    @Test func aWriterAndAReaderOnTheirOwnThreads() throws {
        let directory = try TemporaryDirectory()
        let path = try makeDatabase(directory)
        let writer = try SQLiteConnection(path: path)
        let reader = try SQLiteConnection(path: path)
        writer.busyTimeout = .seconds(10)
        reader.busyTimeout = .seconds(10)
        let rows = 200

        let writing = BackgroundThread {
            for index in 0..<rows {
                try writer.transaction(kind: .immediate) {
                    try writer.run("INSERT INTO events (body) VALUES (?)", "event \(index)")
                }
            }
        }
        let reading = BackgroundThread {
            var last = 0
            while last < rows {
                let now = try reader.queryFirst("SELECT count(*) FROM events") { try $0.int(0) } ?? -1
                guard now >= last else { throw SQLiteError(extendedCode: 1, message: "count went back from \(last) to \(now)") }
                last = now
            }
        }
        try writing.join()
        try reading.join()
        #expect(try count(reader) == rows)
    }
}
