import Foundation
import ParleyCore
import ParleyProtocol
import Testing
@testable import parley_bench

/// `search-bench --bulk`: the `COPY` rows it streams to PostgreSQL, and the fill it shares
/// with the store path. (A whole bulk run needs a PostgreSQL server:
/// scripts/search-bench-postgres.py.)
@Suite struct PostgresBulkLoadTests {
    @Test func aRowHasTheColumnsCopyFillsInOrder() {
        let message = NewMessage(conversationID: ConversationID(7), sender: UserID(3), clientID: "s41", kind: .text,
                                 text: "see you 明天", createdAt: 41)
        #expect(PostgresBulkLoad.row(message, seq: 12) == "7\t12\t3\ts41\ttext\tsee you 明天\t41\n")
        let fields = PostgresBulkLoad.columns.split(separator: ",")
        #expect(fields.count == PostgresBulkLoad.row(message, seq: 12).split(separator: "\t").count)
    }

    @Test func copysSpecialCharactersAndMissingValuesAreEscaped() {
        #expect(PostgresBulkLoad.escaped("a\tb\nc\rd\\e") == "a\\tb\\nc\\rd\\\\e")
        #expect(PostgresBulkLoad.escaped("中文 plain") == "中文 plain")
        let system = NewMessage(conversationID: ConversationID(1), sender: nil, clientID: nil, kind: .text, text: nil, createdAt: 0)
        #expect(PostgresBulkLoad.row(system, seq: 1) == "1\t1\t\\N\t\\N\ttext\t\\N\t0\n")
    }

    @Test func bothFillsDrawTheSameMessages() {
        let bench = SearchBench(corpus: SearchCorpus(rareWords: 200))
        let population = SearchBench.Population(reader: UserID(1), conversations: [ConversationID(10), ConversationID(11)],
                                                senders: [UserID(2), UserID(3)])
        var first = SearchCorpus.Random(seed: 5)
        var second = SearchCorpus.Random(seed: 5)
        let whole = bench.messages(population, from: 0, count: 40, random: &first)
        let halves = bench.messages(population, from: 0, count: 20, random: &second) + bench.messages(population, from: 20, count: 20, random: &second)
        #expect(whole == halves)
        #expect(Set(whole.compactMap(\.clientID)).count == 40)
        // Each message goes to a conversation with that conversation's own sender.
        #expect(whole.allSatisfy { ($0.conversationID == ConversationID(10)) == ($0.sender == UserID(2)) })
    }

    @Test func bulkIsRefusedForSQLite() throws {
        let options = try CommandLineOptions(arguments: ["--bulk", "--messages", "10"], valueNames: SearchBenchCommand.valueOptions,
                                             switchNames: SearchBenchCommand.switchOptions)
        #expect(throws: BenchError.self) { try SearchBenchCommand.run(options) }
    }
}
