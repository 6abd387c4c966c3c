/// The aims of the durable 1:1 path (the issue behind `make bench`'s last table): Parley
/// against the bare relay in one run, each figure a ratio or an absolute bound, marked met
/// or not. Scenarios record the raw numbers these need under fixed keys in the results file
/// (`ResultLog.appendDatum`); `report` reads them back and prints this table.
enum IssueAims {
    /// One aim: how its figure is made from the recorded data and the bound it must meet.
    struct Aim: Sendable {
        enum Rule: Sendable {
            /// Parley's datum ÷ the baseline's must be at least `bound`.
            case ratioAtLeast(parley: String, baseline: String, bound: Double)
            /// Parley's datum must be at most `bound`.
            case atMost(key: String, bound: Double, unit: String)
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
        var aim: String
        /// Nil when the run did not measure it.
        var met: Bool?
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
    ]

    /// Every aim judged on `data` (each key's values; several runs of one key count by their
    /// median).
    static func verdicts(_ data: [String: [Double]]) -> [Verdict] {
        aims.map { aim in
            switch aim.rule {
            case .ratioAtLeast(let parleyKey, let baselineKey, let bound):
                let aimText = "≥ \(Format.significant(bound))×"
                guard let parley = Spread(data[parleyKey] ?? []), let baseline = Spread(data[baselineKey] ?? []) else {
                    return Verdict(name: aim.name, figures: "—", value: "not measured", aim: aimText, met: nil)
                }
                let figures = "\(Format.rate(parley.median)) / \(Format.rate(baseline.median))"
                guard baseline.median > 0 else {
                    return Verdict(name: aim.name, figures: figures, value: "no baseline", aim: aimText, met: nil)
                }
                let ratio = parley.median / baseline.median
                return Verdict(name: aim.name, figures: figures, value: Format.significant(ratio) + "×", aim: aimText, met: ratio >= bound)
            case .atMost(let key, let bound, let unit):
                let aimText = "≤ \(Format.significant(bound)) \(unit)"
                guard let value = Spread(data[key] ?? []) else {
                    return Verdict(name: aim.name, figures: "—", value: "not measured", aim: aimText, met: nil)
                }
                return Verdict(name: aim.name, figures: value.text { Format.significant($0) + " \(unit)" }, value: Format.significant(value.median) + " \(unit)",
                               aim: aimText, met: value.median <= bound)
            }
        }
    }

    /// The verdicts as a table (names start with a word, so the table aligns them as text).
    static func table(_ verdicts: [Verdict]) -> ResultTable {
        var table = ResultTable(headers: ["aim", "Parley / baseline", "figure", "aim", "met"])
        for verdict in verdicts {
            table.add([verdict.name, verdict.figures, verdict.value, verdict.aim,
                       verdict.met.map { $0 ? "met" : "not met" } ?? "not measured"])
        }
        return table
    }
}
