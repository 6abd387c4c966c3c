// Reading the settings from the command line and the environment, and describing them
// (`parley serve --help`, the table of docs/operations.md).
extension ServerConfiguration {
    /// Builds a configuration from `arguments` (flags after `serve`) and `environment`.
    public static func parse(arguments: [String], environment: [String: String]) throws(ConfigurationError) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        for option in options {
            if let value = environment[option.environment] {
                try option.apply(&configuration, value)
            }
        }
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            guard argument.hasPrefix("--") else { throw .unexpectedArgument(argument) }
            var name = String(argument.dropFirst(2))
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let option = options.first(where: { $0.flag == name }) else { throw .unknownFlag(argument) }
            if value == nil {
                index += 1
                guard index < arguments.count else { throw .missingValue(flag: name) }
                value = arguments[index]
            }
            try option.apply(&configuration, value ?? "")
            index += 1
        }
        return configuration
    }

    /// The `--help` text of `parley serve`.
    public static var helpText: String {
        let defaults = ServerConfiguration()
        var lines = ["usage: parley serve [options]", "", "options (each also settable by its environment variable):"]
        for option in options {
            let flag = "--\(option.flag)"
            lines.append("  \(flag.padding(to: 24)) \(option.environment.padding(to: 28)) \(option.help) [default: \(option.current(defaults))]")
        }
        return lines.joined(separator: "\n")
    }

    /// The settings as a Markdown table, for `docs/operations.md`.
    public static var markdownTable: String {
        let defaults = ServerConfiguration()
        var lines = ["| flag | environment | default | meaning | when exceeded |", "| --- | --- | --- | --- | --- |"]
        for option in options {
            let value = option.current(defaults)
            let shown = option.flag == "web" ? "the repository's `Web/`" : option.flag == "loops" ? "number of cores"
                : option.flag == "xmpp-domain" ? "the host name" : value.isEmpty ? "(empty)" : "`\(value)`"
            let exceeded = option.whenExceeded.isEmpty ? "—" : option.whenExceeded
            lines.append("| `--\(option.flag)` | `\(option.environment)` | \(shown) | \(option.help) | \(exceeded) |")
        }
        return lines.joined(separator: "\n")
    }
}

extension String {
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
