/// The aims of the durable 1:1 path (the issue behind `make bench`'s last table): Parley
/// against the bare relay in one run, each figure a ratio or an absolute bound, marked met
/// or not; then, for comparison and without a bound, where the durable relay (the bare relay
/// plus a synced log: what the machine allows for a durable message) sits between the two.
/// Scenarios record the raw numbers these need under fixed keys in the results file
/// (`ResultLog.appendDatum`); `report` reads them back and prints this table.
enum IssueAims {
    /// One line: how its figure is made from the recorded data, and the bound it must meet
    /// (none for a line that is there for comparison).
    struct Aim: Sendable {
        enum Rule: Sendable {
            /// Parley's datum ÷ the baseline's must be at least `bound`.
            case ratioAtLeast(parley: String, baseline: String, bound: Double)
            /// Parley's datum must be at most `bound`.
            case atMost(key: String, bound: Double, unit: String)
            /// One datum ÷ another, for comparison.
            case ratio(of: String, to: String)
            /// A datum, for comparison.
            case value(key: String, unit: String)
        }
        var name: String
        var rule: Rule
    }

    /// How one aim came out.
    struct Verdict: Equatable, Sendable {
        var name: String
        /// The figures it compares (`parley 8,000 / relay 16,000`) or the one figure.
        var figures: String
        /// The ratio or the value, formatted.
        var value: String
        /// The bound (`—` for a line without one).
        var aim: String
        /// Nil when the run did not measure it or the line has no bound.
        var met: Bool?
        /// Whether the line has a bound (false: for comparison only).
        var isAim = true
    }

    /// The key of a search's median highest rate (messages/s) in the results file.
    static func maxRateKey(_ kind: String, _ dialect: String, boundMilliseconds: Double) -> String {
        "\(kind) \(dialect) max rate p99<=\(Format.significant(boundMilliseconds)) ms"
    }

    /// The key of the deliveries per second at that rate.
    static func deliveriesKey(_ kind: String, _ dialect: String, boundMilliseconds: Double) -> String {
        "\(kind) \(dialect) deliveries/s p99<=\(Format.significant(boundMilliseconds)) ms"
    }

    /// The key of the server's CPU microseconds per message at that rate.
    static func cpuKey(_ kind: String, _ dialect: String, boundMilliseconds: Double) -> String {
        "\(kind) \(dialect) server us/message p99<=\(Format.significant(boundMilliseconds)) ms"
    }

    /// The key of the server's RSS per signed-in idle connection, in KiB.
    static let idleKey = "native-idle parley KiB per connection"

    static let aims: [Aim] = [
        Aim(name: "direct: highest rate with p99 ≤ 20 ms, Parley ÷ relay",
            rule: .ratioAtLeast(parley: maxRateKey("direct", "parley", boundMilliseconds: 20),
                                baseline: maxRateKey("direct", "relay", boundMilliseconds: 20), bound: 0.5)),
        Aim(name: "direct: the ceiling (p99 ≤ 1 s), Parley ÷ relay",
            rule: .ratioAtLeast(parley: maxRateKey("direct", "parley", boundMilliseconds: 1000),
                                baseline: maxRateKey("direct", "relay", boundMilliseconds: 1000), bound: 0.25)),
        Aim(name: "direct: server CPU per message at the ceiling",
            rule: .atMost(key: cpuKey("direct", "parley", boundMilliseconds: 1000), bound: 20, unit: "µs")),
        Aim(name: "group: deliveries/s with p99 ≤ 100 ms, Parley ÷ relay",
            rule: .ratioAtLeast(parley: deliveriesKey("group", "parley", boundMilliseconds: 100),
                                baseline: deliveriesKey("group", "relay", boundMilliseconds: 100), bound: 0.9)),
        Aim(name: "idle: server RSS per signed-in connection",
            rule: .atMost(key: idleKey, bound: 2, unit: "KiB")),
    ] + comparisons

    /// The lines without a bound: the durable relay against the bare relay and Parley
    /// against the durable relay at both latency bounds, and each server's CPU per message
    /// at the ceiling.
    static let comparisons: [Aim] = [20.0, 1000].flatMap { bound -> [Aim] in
        let what = bound == 20 ? "highest rate with p99 ≤ 20 ms" : "the ceiling (p99 ≤ 1 s)"
        return [
            Aim(name: "direct: \(what), durable relay ÷ relay",
                rule: .ratio(of: maxRateKey("direct", "durable-relay", boundMilliseconds: bound),
                             to: maxRateKey("direct", "relay", boundMilliseconds: bound))),
            Aim(name: "direct: \(what), Parley ÷ durable relay",
                rule: .ratio(of: maxRateKey("direct", "parley", boundMilliseconds: bound),
                             to: maxRateKey("direct", "durable-relay", boundMilliseconds: bound))),
        ]
    } + ["relay", "durable-relay", "parley"].map { server in
        Aim(name: "direct: server CPU per message at the ceiling, \(server)",
            rule: .value(key: cpuKey("direct", server, boundMilliseconds: 1000), unit: "µs"))
    }

    /// Every aim judged on `data` (each key's values; several runs of one key count by their
    /// median).
    static func verdicts(_ data: [String: [Double]]) -> [Verdict] {
        aims.map { aim in
            switch aim.rule {
            case .ratioAtLeast(let parleyKey, let baselineKey, let bound):
                return ratioVerdict(aim.name, data, parleyKey, baselineKey, bound: bound)
            case .ratio(let key, let baselineKey):
                return ratioVerdict(aim.name, data, key, baselineKey, bound: nil)
            case .atMost(let key, let bound, let unit):
                return valueVerdict(aim.name, data, key, unit: unit, bound: bound)
            case .value(let key, let unit):
                return valueVerdict(aim.name, data, key, unit: unit, bound: nil)
            }
        }
    }

    /// `key`'s median ÷ `baselineKey`'s, met when at least `bound` (nil: no bound).
    private static func ratioVerdict(_ name: String, _ data: [String: [Double]], _ key: String, _ baselineKey: String,
                                     bound: Double?) -> Verdict {
        var verdict = Verdict(name: name, figures: "—", value: "not measured", aim: bound.map { "≥ \(Format.significant($0))×" } ?? "—",
                              met: nil, isAim: bound != nil)
        guard let mine = Spread(data[key] ?? []), let baseline = Spread(data[baselineKey] ?? []) else { return verdict }
        verdict.figures = "\(Format.rate(mine.median)) / \(Format.rate(baseline.median))"
        guard baseline.median > 0 else {
            verdict.value = "no baseline"
            return verdict
        }
        let ratio = mine.median / baseline.median
        verdict.value = Format.significant(ratio) + "×"
        verdict.met = bound.map { ratio >= $0 }
        return verdict
    }

    /// `key`'s median, met when at most `bound` (nil: no bound).
    private static func valueVerdict(_ name: String, _ data: [String: [Double]], _ key: String, unit: String, bound: Double?) -> Verdict {
        var verdict = Verdict(name: name, figures: "—", value: "not measured", aim: bound.map { "≤ \(Format.significant($0)) \(unit)" } ?? "—",
                              met: nil, isAim: bound != nil)
        guard let value = Spread(data[key] ?? []) else { return verdict }
        verdict.figures = value.text { Format.significant($0) + " \(unit)" }
        verdict.value = Format.significant(value.median) + " \(unit)"
        verdict.met = bound.map { value.median <= $0 }
        return verdict
    }

    /// The verdicts as a table (names start with a word, so the table aligns them as text).
    static func table(_ verdicts: [Verdict]) -> ResultTable {
        var table = ResultTable(headers: ["aim", "figures", "figure", "aim", "met"])
        for verdict in verdicts {
            let met = verdict.isAim ? verdict.met.map { $0 ? "met" : "not met" } ?? "not measured" : "—"
            table.add([verdict.name, verdict.figures, verdict.value, verdict.aim, met])
        }
        return table
    }
}
