import Dispatch
import Foundation
import ParleyCore
import ParleyProtocol

/// `search-bench --bulk` on PostgreSQL: fills the store the way a restore does, not one
/// `appendMessage` at a time. Through the store API every message costs a savepoint and a
/// statement, round trips included (≈ 1 ms of CPU and several of wall time a message on a
/// busy two-core machine: a million would take hours). Here the search index the migration
/// made is read back (`pg_get_indexdef`), dropped, the same messages are streamed in with
/// `COPY`, each conversation's counter is set to its last number, and the index is built
/// again with its own definition: the same rows and the same index as the store path, which
/// the insert-CPU comparison still measures message by message.
struct PostgresBulkLoad {
    /// A fresh database on loopback whose schema the store made.
    let uri: String

    /// What a bulk fill took, in wall seconds: the `COPY` (texts made while it runs) and the
    /// index build after it.
    struct Timing {
        var load: Double
        var indexBuild: Double
    }

    /// The columns `COPY` fills; the id comes from the table's identity, the body is NULL
    /// as for every plain text message.
    static let columns = "conversation_id, seq, sender_id, client_id, kind, text, created_at"

    /// Appends `count` messages (`bench.messages`, `batch` at a time) to `population`'s
    /// conversations, numbered in order within each from 1, then builds the search index.
    func fill(bench: SearchBench, population: SearchBench.Population, count: Int, batch: Int,
              random: inout SearchCorpus.Random, progress: (Int) -> Void = { _ in }) throws -> Timing {
        let definition = try SearchBenchStore.psql(uri, "SELECT pg_get_indexdef('messages_search'::regclass)")
        guard definition.hasPrefix("CREATE INDEX") else { throw BenchError.failed("no search index to rebuild: \(definition)") }
        _ = try SearchBenchStore.psql(uri, "DROP INDEX messages_search")

        let started = DispatchTime.now().uptimeNanoseconds
        let copy = SearchBenchStore.psqlProcess(uri, "\\copy messages (\(Self.columns)) FROM pstdin")
        let input = Pipe()
        let errors = Pipe()
        copy.standardInput = input
        copy.standardOutput = FileHandle.nullDevice
        copy.standardError = errors
        try copy.run()
        var sequences: [ConversationID: Int64] = [:]
        var done = 0
        do {
            while done < count {
                let messages = bench.messages(population, from: done, count: min(batch, count - done), random: &random)
                var rows = ""
                for message in messages {
                    let seq = sequences[message.conversationID, default: 0] + 1
                    sequences[message.conversationID] = seq
                    rows += Self.row(message, seq: seq)
                }
                try input.fileHandleForWriting.write(contentsOf: Data(rows.utf8))
                done += messages.count
                progress(done)
            }
        } catch {
            copy.terminate()
            throw error
        }
        try input.fileHandleForWriting.close()
        let complaint = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        copy.waitUntilExit()
        guard copy.terminationStatus == 0 else { throw BenchError.failed("psql \\copy: \(complaint)") }
        _ = try SearchBenchStore.psql(uri, """
            UPDATE conversations AS c SET last_seq = m.last, last_activity_at = greatest(c.last_activity_at, m.at)
            FROM (SELECT conversation_id, max(seq) AS last, max(created_at) AS at FROM messages GROUP BY conversation_id) AS m
            WHERE c.id = m.conversation_id
            """)
        let loaded = DispatchTime.now().uptimeNanoseconds
        _ = try SearchBenchStore.psql(uri, definition)
        _ = try SearchBenchStore.psql(uri, "ANALYZE messages")
        let built = DispatchTime.now().uptimeNanoseconds
        return Timing(load: Double(loaded - started) / 1e9, indexBuild: Double(built - loaded) / 1e9)
    }

    /// One line of `COPY`'s text format for `message`.
    static func row(_ message: NewMessage, seq: Int64) -> String {
        let sender = message.sender.map { String($0.rawValue) } ?? "\\N"
        let client = message.clientID.map(escaped) ?? "\\N"
        let text = message.text.map(escaped) ?? "\\N"
        return "\(message.conversationID.rawValue)\t\(seq)\t\(sender)\t\(client)\t\(message.kind.rawValue)\t\(text)\t\(message.createdAt)\n"
    }

    /// `value` with the characters `COPY`'s text format gives a meaning escaped.
    static func escaped(_ value: String) -> String {
        var result = ""
        for character in value.unicodeScalars {
            switch character {
            case "\\": result += "\\\\"
            case "\t": result += "\\t"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }
}
