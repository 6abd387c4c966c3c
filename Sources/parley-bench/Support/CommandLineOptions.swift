/// The flags of one subcommand: `--name value` (or `--name=value`) pairs and bare
/// `--name` switches. Names are checked against what the subcommand accepts, so a typo
/// fails loudly instead of silently running a different measurement.
struct CommandLineOptions {
    private var values: [String: String] = [:]
    private var switches: Set<String> = []

    /// Parses `arguments` (without the subcommand), accepting `valueNames` and `switchNames`.
    init(arguments: [String], valueNames: Set<String>, switchNames: Set<String>) throws(BenchError) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--"), argument.count > 2 else {
                throw .usage("unexpected argument '\(argument)'")
            }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if switchNames.contains(name) {
                guard inlineValue == nil else { throw .usage("--\(name) takes no value") }
                switches.insert(name)
            } else if valueNames.contains(name) {
                if let inlineValue {
                    values[name] = inlineValue
                } else {
                    guard index < arguments.count else { throw .usage("--\(name) needs a value") }
                    values[name] = arguments[index]
                    index += 1
                }
            } else {
                throw .usage("unknown option --\(name)")
            }
        }
    }

    /// Whether the switch `--name` was given.
    func flag(_ name: String) -> Bool { switches.contains(name) }

    /// The value of `--name`, or nil.
    func optionalString(_ name: String) -> String? { values[name] }

    /// The value of `--name`, or `defaultValue`; an error when neither exists.
    func string(_ name: String, default defaultValue: String? = nil) throws(BenchError) -> String {
        guard let value = values[name] ?? defaultValue else { throw .usage("--\(name) is required") }
        return value
    }

    /// `--name` as an integer within `range` (underscores allowed: `10_000`).
    func int(_ name: String, default defaultValue: Int? = nil, in range: ClosedRange<Int> = 0...Int.max) throws(BenchError) -> Int {
        guard let text = values[name] else {
            guard let defaultValue else { throw .usage("--\(name) is required") }
            return defaultValue
        }
        guard let value = Int(text.filter { $0 != "_" }), range.contains(value) else {
            throw .usage("--\(name) must be an integer in \(range.lowerBound)…\(range.upperBound), not '\(text)'")
        }
        return value
    }

    /// `--name` as a number within `range`.
    func double(_ name: String, default defaultValue: Double? = nil, in range: ClosedRange<Double> = 0...Double.greatestFiniteMagnitude) throws(BenchError) -> Double {
        guard let text = values[name] else {
            guard let defaultValue else { throw .usage("--\(name) is required") }
            return defaultValue
        }
        guard let value = Double(text.filter { $0 != "_" }), range.contains(value) else {
            throw .usage("--\(name) must be a number in \(range.lowerBound)…\(range.upperBound), not '\(text)'")
        }
        return value
    }
}
