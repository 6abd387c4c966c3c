import Foundation

/// The results of a file (`--results`) folded for `report`: a metric that several runs
/// recorded (the rounds of `scripts/bench-compare.sh`, repeated `make bench` runs into one
/// file) becomes one row with its median and spread, when its values are numbers in one
/// unit; otherwise its values are listed in order. Raw data (`ResultLog.datumScenario`) is
/// set apart for `IssueAims`.
struct ResultSummary {
    /// One row of the table.
    struct Row: Equatable {
        var scenario: String
        var metric: String
        var value: String
    }

    private(set) var rows: [Row] = []
    /// Raw data by key, in the order recorded.
    private(set) var data: [String: [Double]] = [:]

    init(_ entries: [(scenario: String, metric: String, value: String)]) {
        var order: [String] = []
        var values: [String: (scenario: String, metric: String, values: [String])] = [:]
        for entry in entries {
            if entry.scenario == ResultLog.datumScenario {
                if let number = Double(entry.value) { data[entry.metric, default: []].append(number) }
                continue
            }
            let key = entry.scenario + "\t" + entry.metric
            if values[key] == nil {
                order.append(key)
                values[key] = (entry.scenario, entry.metric, [])
            }
            values[key]?.values.append(entry.value)
        }
        rows = order.compactMap { key in
            guard let row = values[key] else { return nil }
            return Row(scenario: row.scenario, metric: row.metric, value: Self.fold(row.values))
        }
    }

    /// One value as it is; several as `median (min–max, n runs)` when they are all a number
    /// followed by the same unit, else all of them separated by `; ` (a Markdown table's cells may not hold `|`).
    static func fold(_ values: [String]) -> String {
        guard values.count > 1 else { return values.first ?? "" }
        let parsed = values.map(number)
        if let unit = parsed.first??.unit, parsed.allSatisfy({ $0?.unit == unit }),
           let spread = Spread(parsed.compactMap { $0?.value }) {
            let suffix = unit.isEmpty ? "" : " " + unit
            let format = { (value: Double) in Self.format(value) }
            return "\(format(spread.median))\(suffix) (\(format(spread.min))–\(format(spread.max)), \(spread.count) runs)"
        }
        // Latencies are shown in whichever unit keeps three digits: compare them in ns.
        let scale: [String: Double] = ["ns": 1, "µs": 1e3, "ms": 1e6, "s": 1e9]
        if parsed.allSatisfy({ $0.map { scale[$0.unit] != nil } ?? false }),
           let spread = Spread(parsed.compactMap { $0.map { $0.value * (scale[$0.unit] ?? 1) } }) {
            let format = { (value: Double) in Format.latency(nanoseconds: UInt64(max(0, value.rounded()))) }
            return "\(format(spread.median)) (\(format(spread.min))–\(format(spread.max)), \(spread.count) runs)"
        }
        return values.joined(separator: "; ")
    }

    /// `8,788 msg/s` → (8788, "msg/s"); `13.9 ms` → (13.9, "ms"); nil when the text does not
    /// start with a number.
    static func number(_ text: String) -> (value: Double, unit: String)? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let digits = trimmed.prefix { $0.isNumber || $0 == "," || $0 == "." || $0 == "-" }
        guard !digits.isEmpty, let value = Double(digits.filter { $0 != "," }) else { return nil }
        return (value, trimmed.dropFirst(digits.count).trimmingCharacters(in: .whitespaces))
    }

    private static func format(_ value: Double) -> String {
        value >= 1000 || value == value.rounded() ? Format.rate(value) : Format.significant(value)
    }
}
