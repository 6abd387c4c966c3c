import CParleySystem

/// Structured logging: one JSON object per line on stderr, with a time, a level, a message
/// and fields. Never pass passwords, tokens or codes as fields.
public struct Logger: Sendable {
    /// Severity, in increasing order.
    public enum Level: Int, Sendable, Comparable, CustomStringConvertible {
        case debug, info, warning, error

        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }

        public var description: String {
            switch self {
            case .debug: return "debug"
            case .info: return "info"
            case .warning: return "warning"
            case .error: return "error"
            }
        }

        /// Parses `debug`, `info`, `warning` or `error`.
        public init?(name: String) {
            switch name.lowercasedASCII() {
            case "debug": self = .debug
            case "info": self = .info
            case "warning", "warn": self = .warning
            case "error": self = .error
            default: return nil
            }
        }
    }

    /// A field value.
    public enum Value: Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral {
        case string(String), int(Int), double(Double), bool(Bool)
        public init(stringLiteral value: String) { self = .string(value) }
        public init(integerLiteral value: Int) { self = .int(value) }
        public init(booleanLiteral value: Bool) { self = .bool(value) }
    }

    /// The component name written with every line, e.g. `"http"`.
    public let label: String
    /// Lines below this level are dropped.
    public var minimumLevel: Level
    private let sink: @Sendable (String) -> Void

    /// A logger writing to stderr.
    public init(label: String, minimumLevel: Level = .info) {
        self.init(label: label, minimumLevel: minimumLevel) { line in
            line.withCString { _ = write(2, $0, strlen($0)) }
        }
    }

    /// A logger writing each line (with its newline) to `sink`; for tests.
    public init(label: String, minimumLevel: Level = .info, sink: @escaping @Sendable (String) -> Void) {
        self.label = label
        self.minimumLevel = minimumLevel
        self.sink = sink
    }

    /// Logs `message` with `fields` at `level`.
    public func log(_ level: Level, _ message: String, _ fields: [String: Value] = [:]) {
        guard level >= minimumLevel else { return }
        var line = "{\"ts\":\"\(Self.timestamp())\",\"level\":\"\(level)\",\"logger\":"
        Self.appendJSONString(label, to: &line)
        line += ",\"msg\":"
        Self.appendJSONString(message, to: &line)
        for key in fields.keys.sorted() {
            line += ","
            Self.appendJSONString(key, to: &line)
            line += ":"
            switch fields[key]! {
            case .string(let text): Self.appendJSONString(text, to: &line)
            case .int(let number): line += String(number)
            case .double(let number): line += number.isFinite ? String(number) : "null"
            case .bool(let flag): line += flag ? "true" : "false"
            }
        }
        line += "}\n"
        sink(line)
    }

    public func debug(_ message: String, _ fields: [String: Value] = [:]) { log(.debug, message, fields) }
    public func info(_ message: String, _ fields: [String: Value] = [:]) { log(.info, message, fields) }
    public func warning(_ message: String, _ fields: [String: Value] = [:]) { log(.warning, message, fields) }
    public func error(_ message: String, _ fields: [String: Value] = [:]) { log(.error, message, fields) }

    /// Appends `text` as a JSON string literal (quotes, escapes, control characters).
    public static func appendJSONString(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    /// UTC time as `2026-01-02T03:04:05.678Z`.
    static func timestamp() -> String {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        var seconds = spec.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2))."
            + "\(pad(Int32(spec.tv_nsec / 1_000_000), 3))Z"
    }
}
