import Foundation
import TestSupport
import Testing
@testable import parley_bench

/// `search-bench`'s parts: the corpus and query mix, the percentile, and a whole small run
/// over a real SQLite store.
@Suite struct SearchBenchTests {
    @Test func theCorpusIsTheSameForTheSameSeedAndMixesLanguages() {
        let corpus = SearchCorpus(rareWords: 500)
        var first = SearchCorpus.Random(seed: 9)
        var second = SearchCorpus.Random(seed: 9)
        let a = (0..<300).map { _ in corpus.message(&first) }
        let b = (0..<300).map { _ in corpus.message(&second) }
        #expect(a == b)
        let chinese = a.filter { $0.unicodeScalars.contains { $0.value >= 0x4E00 && $0.value <= 0x9FFF } }
        let latin = a.filter { $0.unicodeScalars.contains { $0.value >= 0x61 && $0.value <= 0x7A } }
        let both = a.filter { chinese.contains($0) && latin.contains($0) }
        // About half English, three in ten Chinese, two in ten mixed.
        #expect(chinese.count > 100 && chinese.count < 200)
        #expect(latin.count > 150 && latin.count < 250)
        #expect(both.count > 30 && both.count < 100)
        #expect(a.allSatisfy { !$0.isEmpty })
    }

    @Test func theQueryMixHasWhatEachKindPromises() {
        let corpus = SearchCorpus(rareWords: 2000)
        var random = SearchCorpus.Random(seed: 3)
        let isChinese: (String) -> Bool = { $0.unicodeScalars.allSatisfy { $0.value >= 0x4E00 && $0.value <= 0x9FFF } }
        let common = corpus.queries(.commonWord, count: 50, random: &random)
        #expect(common.allSatisfy { SearchCorpus.englishCommon.prefix(20).contains($0) && $0.count >= 3 })
        let rare = corpus.queries(.rareWord, count: 50, random: &random)
        #expect(rare.allSatisfy { !SearchCorpus.englishCommon.contains($0) && corpus.english.contains($0) })
        #expect(corpus.queries(.chinese2, count: 50, random: &random).allSatisfy { $0.count == 2 && isChinese($0) })
        #expect(corpus.queries(.chinese3, count: 50, random: &random).allSatisfy { $0.count == 3 && isChinese($0) })
        let mixed = corpus.queries(.mixed, count: 50, random: &random)
        #expect(mixed.allSatisfy { query in
            let words = query.split(separator: " ")
            return words.count == 2 && !isChinese(String(words[0])) && isChinese(String(words[1])) && words[1].count == 2
        })
    }

    @Test func percentilesByNearestRank() {
        let values: [UInt64] = Array(1...100)
        #expect(SearchBench.percentile(values, 0.5) == 50)
        #expect(SearchBench.percentile(values, 0.99) == 99)
        #expect(SearchBench.percentile(values, 1) == 100)
        #expect(SearchBench.percentile([7], 0.99) == 7)
        #expect(SearchBench.percentile([], 0.5) == 0)
        #expect(SearchBench.percentile([1, 2, 3], 0.5) == 2)
    }

    @Test func eachKindAndScopeStopsAtItsTimeBudgetAfterOneSearch() async throws {
        let directory = NSTemporaryDirectory() + "parley-search-bench-test-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let report = try await onOwnThread {
            try SearchBenchCommand.measure(main: .sqlite(path: directory + "/search.sqlite"), comparisons: nil, messages: 200,
                                           conversations: 5, searches: 50, compare: 0, batch: 100, seed: 2,
                                           searchSeconds: 1e-9) { _ in }
        }
        #expect(report.timings.count == SearchCorpus.QueryKind.allCases.count * SearchBench.Scope.allCases.count)
        #expect(report.timings.allSatisfy { $0.latencies.count == 1 })
    }

    @Test func aSmallRunFillsSearchesAndMeasures() async throws {
        let said = SaidLines()
        let directory = NSTemporaryDirectory() + "parley-search-bench-test-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let report = try await onOwnThread {
            try SearchBenchCommand.measure(
                main: .sqlite(path: directory + "/search.sqlite"),
                comparisons: (.sqlite(path: directory + "/indexed.sqlite"), .sqlite(path: directory + "/plain.sqlite")),
                messages: 1000, conversations: 20, searches: 5, compare: 500, batch: 300, seed: 1) { said.append($0) }
        }
        let lines = said.all
        #expect(report.messages == 1000)
        #expect(report.timings.count == SearchCorpus.QueryKind.allCases.count * SearchBench.Scope.allCases.count)
        #expect(report.timings.allSatisfy { $0.latencies.count == 5 && $0.latencies.allSatisfy { $0 > 0 } })
        // Common words are on every page across all chats; the index takes room.
        let common = try #require(report.timings.first { $0.kind == .commonWord && $0.scope == .everywhere })
        #expect(common.hits > 0)
        #expect(report.indexBytes > 0 && report.messagesBytes > 0)
        #expect((report.insertWithIndex ?? 0) > 0 && (report.insertWithoutIndex ?? 0) > 0)
        #expect(lines.contains { $0.hasPrefix("  filled") })
        // The plain copy really lost its index's upkeep: its messages are not in the index.
        let plain = SearchBenchStore.sqlite(path: directory + "/plain.sqlite")
        let indexed = SearchBenchStore.sqlite(path: directory + "/indexed.sqlite")
        #expect(try plain.sizes().index < indexed.sizes().index)
    }
}

/// What a run printed, collected from the thread it ran on.
private final class SaidLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ line: String) { lock.withLock { lines.append(line) } }

    var all: [String] { lock.withLock { lines } }
}
