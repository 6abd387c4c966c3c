import Glibc
import Testing
@testable import parley_bench

/// The search's rules with a step function that fails on purpose: a noisy failure is
/// repeated, a real one ends the search, and everything is bounded.
@Suite struct RateSearchTests {
    private func policy(retries: Int, maxRate: Double = 1_000_000, findMax: Bool = true) -> RateSearch.Policy {
        RateSearch.Policy(start: 1000, factor: 2, maxRate: maxRate, retries: retries, findMax: findMax)
    }

    @Test func aNoisyFirstFailureDoesNotEndTheSearch() {
        // The server holds up to 8,000/s, but the very first step fails once (set-up noise).
        var calls = 0
        let result = RateSearch(policy: policy(retries: 2)).run { rate, _ in
            calls += 1
            return calls > 1 && rate <= 8000
        }
        #expect(result.maxHeld == 8000)
        #expect(result.attempts.first == RateSearch.Attempt(rate: 1000, retry: 0, held: false))
        #expect(result.attempts[1] == RateSearch.Attempt(rate: 1000, retry: 1, held: true))
        // 16,000 fails three times (the first try and both repeats), then the search stops.
        #expect(result.attempts.suffix(3).map(\.retry) == [0, 1, 2])
        #expect(result.attempts.suffix(3).allSatisfy { $0.rate == 16000 && !$0.held })
        #expect(result.attempts.count == 2 + 3 + 3)
    }

    @Test func withoutRetriesTheFirstFailureEndsIt() {
        var calls = 0
        let result = RateSearch(policy: policy(retries: 0)).run { _, _ in
            calls += 1
            return calls > 1
        }
        #expect(result.maxHeld == nil)
        #expect(result.attempts.count == 1)
    }

    @Test func theSearchStopsAtTheMaximumRateAndWhenItMayNotContinue() {
        let capped = RateSearch(policy: policy(retries: 2, maxRate: 4000)).run { _, _ in true }
        #expect(capped.attempts.map(\.rate) == [1000, 2000, 4000])
        #expect(capped.maxHeld == 4000)

        var steps = 0
        let stopped = RateSearch(policy: policy(retries: 2)).run(canContinue: { steps < 2 }) { _, _ in
            steps += 1
            return true
        }
        #expect(stopped.attempts.count == 2)
        #expect(stopped.maxHeld == 2000)
    }

    @Test func refinementsBisectBetweenTheLastHeldAndTheFirstFailedRate() {
        // Holds up to 6,000/s: the rise stops at 8,000 (held 4,000), then 5,660 holds,
        // 6,730 fails (three tries), and the search ends with 5,660.
        let result = RateSearch(policy: RateSearch.Policy(start: 1000, factor: 2, maxRate: 1_000_000, retries: 2, refinements: 2))
            .run { rate, _ in rate <= 6000 }
        #expect(result.maxHeld == 5660)
        let firstTries = result.attempts.filter { $0.retry == 0 }.map(\.rate)
        #expect(firstTries == [1000, 2000, 4000, 8000, 5660, 6730])
        #expect(result.attempts.filter { $0.rate == 6730 }.count == 3)
    }

    @Test func refinementsNeedARateThatHeldAndOneThatFailed() {
        let none = RateSearch(policy: RateSearch.Policy(start: 1000, factor: 2, maxRate: 1_000_000, retries: 0, refinements: 3))
            .run { _, _ in false }
        #expect(none.maxHeld == nil)
        #expect(none.attempts.count == 1)
        let capped = RateSearch(policy: RateSearch.Policy(start: 1000, factor: 2, maxRate: 4000, retries: 0, refinements: 3))
            .run { _, _ in true }
        #expect(capped.attempts.map(\.rate) == [1000, 2000, 4000])
        // Below 1,000 a rate is rounded to a whole number; above, to three digits.
        #expect(RateSearch.rounded(452.55) == 453)
        #expect(RateSearch.rounded(181_019.3) == 181_000)
    }

    @Test func aFixedRateRunIsOneStepWithoutRepeats() {
        var calls = 0
        let result = RateSearch(policy: policy(retries: 2, findMax: false)).run { _, _ in
            calls += 1
            return false
        }
        #expect(calls == 1)
        #expect(result.maxHeld == nil)
    }
}

@Suite struct SpreadTests {
    @Test func medianMinimumAndMaximum() throws {
        let odd = try #require(Spread([9000, 6000, 8000]))
        #expect(odd.median == 8000)
        #expect(odd.min == 6000)
        #expect(odd.max == 9000)
        #expect(odd.count == 3)
        #expect(odd.text(Format.rate) == "8,000 (6,000–9,000, 3 searches)")

        let even = try #require(Spread([4, 1, 3, 2]))
        #expect(even.median == 2.5)
        #expect(Spread([]) == nil)
        #expect(Spread([5])?.text(Format.rate) == "5")
    }

    @Test func aSearchThatHeldNothingCountsAsZeroInTheMedian() {
        let outcome = MessagingRunner.Outcome(server: .parley, steps: [], searches: [nil, 4000, 8000])
        #expect(outcome.maxHeld == 4000)
        #expect(outcome.spread?.min == 0)
        let mostlyNone = MessagingRunner.Outcome(server: .parley, steps: [], searches: [nil, nil, 8000])
        #expect(mostlyNone.maxHeld == nil)
        #expect(MessagingComparison.maxHeldText(mostlyNone) == "none (median of 3 searches: none, none, 8,000)")
    }
}

@Suite struct ServerSettleTests {
    @Test func waitsUntilTheServerStaysQuiet() {
        // A server busy (a full core) for its first three readings, then idle.
        var readings = 0
        var used = 0.0
        let settle = ServerSettle(thresholdPercent: 10, window: .milliseconds(50), timeout: .seconds(10))
        let outcome = settle.wait {
            readings += 1
            if readings <= 3 { used += 0.05 }
            return ServerSettle.Reading(cpuSeconds: used, writtenBytes: nil)
        }
        #expect(outcome.settled)
        #expect(readings >= 4)
        #expect((outcome.lastPercent ?? 100) < 10)
    }

    @Test func givesUpAfterItsTimeoutAndOnAnUnreadableServer() {
        var used = 0.0
        let busy = ServerSettle(thresholdPercent: 10, window: .milliseconds(50), timeout: .milliseconds(300)).wait {
            used += 0.1
            return ServerSettle.Reading(cpuSeconds: used, writtenBytes: nil)
        }
        #expect(!busy.settled)
        #expect(busy.waited < .seconds(2))
        let gone = ServerSettle(window: .milliseconds(10)).wait { nil }
        #expect(!gone.settled)
    }

    @Test func aServerThatIdlesOnTheCPUButStillWritesIsNotQuiet() {
        // No CPU at all, but 10 MiB written per reading for the first four readings (a
        // backlog of synced writes), then nothing.
        var readings = 0
        var written = 0.0
        let settle = ServerSettle(thresholdPercent: 10, writeBytesPerSecond: 1024 * 1024, window: .milliseconds(50),
                                  timeout: .seconds(10))
        let outcome = settle.wait {
            readings += 1
            if readings <= 4 { written += 10 * 1024 * 1024 }
            return ServerSettle.Reading(cpuSeconds: 0, writtenBytes: written)
        }
        #expect(outcome.settled)
        #expect(readings >= 6)
        // This process can read its own write counter.
        #expect(ServerSettle.writtenBytes(pid: getpid()) != nil)
    }
}

@Suite struct ResultSummaryTests {
    @Test func repeatedMetricsFoldIntoMedianAndSpread() {
        let summary = ResultSummary([
            ("direct → parley", "max rate", "8,000 msg/s"),
            ("direct → parley", "errors", "0"),
            (ResultLog.datumScenario, "k", "2.5"),
            ("direct → parley", "max rate", "6,000 msg/s"),
            ("direct → parley", "max rate", "9,000 msg/s"),
            ("direct → parley", "p99", "1.2 ms"),
            ("direct → parley", "p99", "845 µs"),
            ("direct → parley", "p99", "2.00 s"),
            ("direct → parley", "held", "8,000 msg/s"),
            ("direct → parley", "held", "none"),
            (ResultLog.datumScenario, "k", "3.5"),
        ])
        #expect(summary.rows.map(\.metric) == ["max rate", "errors", "p99", "held"])
        #expect(summary.rows[0].value == "8,000 msg/s (6,000–9,000, 3 runs)")
        #expect(summary.rows[1].value == "0")
        // Latencies in different units are compared in one.
        #expect(summary.rows[2].value == "1.20 ms (845 µs–2.00 s, 3 runs)")
        // Values that are not all numbers are listed.
        #expect(summary.rows[3].value == "8,000 msg/s; none")
        #expect(summary.data["k"] == [2.5, 3.5])
    }

    @Test func aimsAreJudgedOnTheRecordedData() {
        var data: [String: [Double]] = [:]
        data[IssueAims.maxRateKey("direct", "parley", boundMilliseconds: 20)] = [10_000]
        data[IssueAims.maxRateKey("direct", "relay", boundMilliseconds: 20)] = [50_000]
        data[IssueAims.maxRateKey("direct", "parley", boundMilliseconds: 1000)] = [20_000, 30_000, 25_000]
        data[IssueAims.maxRateKey("direct", "relay", boundMilliseconds: 1000)] = [100_000]
        data[IssueAims.cpuKey("direct", "parley", boundMilliseconds: 1000)] = [90]
        data[IssueAims.idleKey] = [1.5]
        let verdicts = Array(IssueAims.verdicts(data).prefix(5))
        #expect(verdicts[0].value == "0.20×")
        #expect(verdicts[0].met == false)
        #expect(verdicts[1].value == "0.25×")
        #expect(verdicts[1].met == true)
        #expect(verdicts[2].met == false)
        #expect(verdicts[3].met == nil)
        #expect(verdicts[3].value == "not measured")
        #expect(verdicts[4].met == true)
        #expect(IssueAims.table(verdicts).rows.map { $0[4] } == ["not met", "met", "not met", "not measured", "met"])
    }

    /// The durable relay's lines: ratios and CPU for comparison, never judged met or not.
    @Test func durableRelayLinesCompareWithoutABound() throws {
        var data: [String: [Double]] = [:]
        data[IssueAims.maxRateKey("direct", "parley", boundMilliseconds: 20)] = [2_000]
        data[IssueAims.maxRateKey("direct", "relay", boundMilliseconds: 20)] = [30_000]
        data[IssueAims.maxRateKey("direct", "durable-relay", boundMilliseconds: 20)] = [8_000, 16_000, 12_000]
        data[IssueAims.maxRateKey("direct", "relay", boundMilliseconds: 1000)] = [64_000]
        data[IssueAims.maxRateKey("direct", "durable-relay", boundMilliseconds: 1000)] = [0]
        data[IssueAims.cpuKey("direct", "durable-relay", boundMilliseconds: 1000)] = [30, 40, 35]
        let all = IssueAims.verdicts(data)
        let lines = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })
        let durableOverRelay = try #require(lines["direct: highest rate with p99 ≤ 20 ms, durable relay ÷ relay"])
        #expect(durableOverRelay.value == "0.40×")
        #expect(durableOverRelay.figures == "12,000 / 30,000")
        #expect(durableOverRelay.met == nil)
        #expect(durableOverRelay.aim == "—")
        #expect(lines["direct: highest rate with p99 ≤ 20 ms, Parley ÷ durable relay"]?.value == "0.17×")
        #expect(lines["direct: the ceiling (p99 ≤ 1 s), durable relay ÷ relay"]?.value == "0.00×")
        #expect(lines["direct: the ceiling (p99 ≤ 1 s), Parley ÷ durable relay"]?.value == "not measured")
        #expect(lines["direct: server CPU per message at the ceiling, durable-relay"]?.value == "35.0 µs")
        #expect(lines["direct: server CPU per message at the ceiling, relay"]?.value == "not measured")
        let rows = IssueAims.table(all).rows
        #expect(rows.count == 12)
        // The five aims are judged; the seven comparisons are not.
        #expect(rows.suffix(7).allSatisfy { $0[4] == "—" })
        #expect(rows.prefix(5).allSatisfy { $0[4] != "—" })
    }
}
