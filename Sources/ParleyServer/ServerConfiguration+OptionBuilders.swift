import Foundation
import ParleyCore
import ParleyNet

// The builders of `ServerConfiguration.options`: each setting's parsing, help and what
// happens at it, from its flag, key path and range.
extension ServerConfiguration {
    static func environmentName(_ flag: String) -> String {
        "PARLEY_" + flag.uppercased().replacingOccurrences(of: "-", with: "_")
    }

    static func text(_ flag: String, _ path: WritableKeyPath<ServerConfiguration, String> & Sendable,
                             _ help: String, environment: String? = nil, exceeded: String = "") -> Option {
        Option(flag: flag, environment: environment ?? environmentName(flag), help: help, whenExceeded: exceeded,
               apply: { configuration, value in configuration[keyPath: path] = value },
               current: { $0[keyPath: path] })
    }

    static func number(_ flag: String, _ path: WritableKeyPath<ServerConfiguration, Int> & Sendable,
                               _ range: ClosedRange<Int>, _ help: String, exceeded: String = "") -> Option {
        Option(flag: flag, environment: environmentName(flag), help: help, whenExceeded: exceeded,
               apply: { configuration, value throws(ConfigurationError) in
                   guard let number = Int(value), range.contains(number) else {
                       throw .invalidValue(flag: flag, value: value, expected: "a whole number from \(range.lowerBound) to \(range.upperBound)")
                   }
                   configuration[keyPath: path] = number
               },
               current: { String($0[keyPath: path]) })
    }

    static func choice(_ flag: String, _ path: WritableKeyPath<ServerConfiguration, String> & Sendable,
                               _ allowed: [String], _ help: String) -> Option {
        Option(flag: flag, environment: environmentName(flag), help: help, whenExceeded: "",
               apply: { configuration, value throws(ConfigurationError) in
                   guard allowed.contains(value) else {
                       throw .invalidValue(flag: flag, value: value, expected: "one of \(allowed.joined(separator: ", "))")
                   }
                   configuration[keyPath: path] = value
               },
               current: { $0[keyPath: path] })
    }

    /// `--max-<field>-length` (characters, counted as Unicode scalars) and `--max-<field>-bytes`
    /// for every free-text field.
    static func textLimitOptions() -> [Option] {
        TextField.allCases.flatMap { field -> [Option] in
            let refusal = field == .name ? "`invalid_name`" : "`invalid_field`"
            let exceeded = "the request is answered \(refusal) (field `\(field.wireName)`); over XMPP the stanza gets `bad-request` or `not-acceptable`"
            let what = field.helpName
            return [
                number("max-\(field.flagStem)-length", \.textLimits[field].maxCharacters, max(1, field.defaultLimit.characters.lowerBound)...1_000_000,
                       "most characters (Unicode scalars) in \(what)", exceeded: exceeded),
                number("max-\(field.flagStem)-bytes", \.textLimits[field].bytes, 1...4_000_000,
                       "most UTF-8 bytes in \(what)", exceeded: exceeded),
            ]
        }
    }

    /// `--trusted-proxies`: addresses or CIDR ranges, checked at start.
    static func trustedProxiesOption() -> Option {
        Option(flag: "trusted-proxies", environment: environmentName("trusted-proxies"),
               help: "reverse proxies (addresses or CIDR ranges, comma-separated) whose X-Forwarded-For/Forwarded name the client for per-address limits; empty = none", whenExceeded: "",
               apply: { configuration, value throws(ConfigurationError) in
                   guard ClientAddressResolver(list: value) != nil else {
                       throw .invalidValue(flag: "trusted-proxies", value: value, expected: "IP addresses or CIDR ranges separated by commas")
                   }
                   configuration.trustedProxies = value
               },
               current: { $0.trustedProxies })
    }

    /// `--store`: empty, or a PostgreSQL URI. A refused value is not echoed back, since a
    /// connection string may hold a password.
    static func storeOption() -> Option {
        Option(flag: "store", environment: environmentName("store"),
               help: "where data is kept: empty = SQLite file <data>/parley.sqlite; postgres://user@host:port/db = PostgreSQL", whenExceeded: "",
               apply: { configuration, value throws(ConfigurationError) in
                   guard value.isEmpty || value.hasPrefix("postgres://") || value.hasPrefix("postgresql://") else {
                       throw .invalidValue(flag: "store", value: "(not shown)",
                                           expected: "empty (SQLite) or a postgres:// or postgresql:// URI")
                   }
                   configuration.store = value
               },
               current: { $0.store })
    }
}
