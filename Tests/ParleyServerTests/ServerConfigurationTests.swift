import Foundation
import Testing
@testable import ParleyServer

@Suite struct ServerConfigurationTests {
    @Test func defaultsWithoutFlagsOrEnvironment() throws {
        let configuration = try ServerConfiguration.parse(arguments: [], environment: [:])
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.port == 8080)
        #expect(configuration.dataDirectory == "./data")
    }

    @Test func flagsBeatEnvironment() throws {
        let configuration = try ServerConfiguration.parse(
            arguments: ["--port", "9000", "--host=0.0.0.0"],
            environment: ["PARLEY_PORT": "7000", "PARLEY_LOOPS": "3", "PARLEY_DATA": "/var/lib/parley"])
        #expect(configuration.port == 9000)
        #expect(configuration.host == "0.0.0.0")
        #expect(configuration.loops == 3)
        #expect(configuration.dataDirectory == "/var/lib/parley")
    }

    @Test func heapArenasDefaultToOneAndTakeZeroForGlibcsDefault() throws {
        #expect(try ServerConfiguration.parse(arguments: [], environment: [:]).heapArenas == 1)
        #expect(try ServerConfiguration.parse(arguments: ["--heap-arenas", "0"], environment: [:]).heapArenas == 0)
        #expect(throws: ConfigurationError.self) {
            try ServerConfiguration.parse(arguments: ["--heap-arenas", "-1"], environment: [:])
        }
    }

    @Test func badValuesAreNamed() {
        #expect(throws: ConfigurationError.invalidValue(flag: "port", value: "70000", expected: "a whole number from 0 to 65535")) {
            try ServerConfiguration.parse(arguments: ["--port", "70000"], environment: [:])
        }
        #expect(throws: ConfigurationError.unknownFlag("--nope")) {
            try ServerConfiguration.parse(arguments: ["--nope"], environment: [:])
        }
        #expect(throws: ConfigurationError.missingValue(flag: "web")) {
            try ServerConfiguration.parse(arguments: ["--web"], environment: [:])
        }
        #expect(throws: ConfigurationError.invalidValue(flag: "log-level", value: "loud", expected: "one of debug, info, warning, error")) {
            try ServerConfiguration.parse(arguments: [], environment: ["PARLEY_LOG_LEVEL": "loud"])
        }
    }

    @Test func theStoreIsSQLiteByDefaultOrAPostgresURIAndABadOneIsNotEchoed() throws {
        #expect(try ServerConfiguration.parse(arguments: [], environment: [:]).store == "")
        let uri = "postgres://parley:secret@db.example:5432/parley"
        let configured = try ServerConfiguration.parse(arguments: ["--db-writers", "3", "--db-batch-limit", "64"],
                                                       environment: ["PARLEY_STORE": uri])
        #expect(configured.store == uri)
        #expect(configured.databaseWriters == 3 && configured.databaseBatchLimit == 64)
        #expect(try ServerConfiguration.parse(arguments: ["--store", "postgresql://h/db"], environment: [:]).store == "postgresql://h/db")
        let refused = try #require(throws: ConfigurationError.self) {
            try ServerConfiguration.parse(arguments: ["--store", "mysql://root:secret@h/db"], environment: [:])
        }
        #expect(!refused.description.contains("secret"))
        #expect(refused.description.contains("--store"))
    }

    @Test func theXMPPReceiptsMemoryIsConfigurable() throws {
        #expect(try ServerConfiguration.parse(arguments: [], environment: [:]).xmppReceiptsKept == 64)
        #expect(try ServerConfiguration.parse(arguments: ["--xmpp-receipts-kept", "500"], environment: [:]).xmppReceiptsKept == 500)
        #expect(try ServerConfiguration.parse(arguments: [], environment: ["PARLEY_XMPP_RECEIPTS_KEPT": "9"]).xmppReceiptsKept == 9)
        #expect(throws: ConfigurationError.self) {
            try ServerConfiguration.parse(arguments: ["--xmpp-receipts-kept", "0"], environment: [:])
        }
    }

    @Test func theFanOutWindowIsAFewMillisecondsByDefaultAndZeroTurnsItOff() throws {
        #expect(try ServerConfiguration.parse(arguments: [], environment: [:]).fanOutWindowMilliseconds == 10)
        #expect(try ServerConfiguration.parse(arguments: ["--fanout-window-ms", "0"], environment: [:]).fanOutWindowMilliseconds == 0)
        #expect(try ServerConfiguration.parse(arguments: [], environment: ["PARLEY_FANOUT_WINDOW_MS": "5"]).fanOutWindowMilliseconds == 5)
        // Bounded well inside the latency a delivery is allowed.
        #expect(throws: ConfigurationError.invalidValue(flag: "fanout-window-ms", value: "101", expected: "a whole number from 0 to 100")) {
            try ServerConfiguration.parse(arguments: ["--fanout-window-ms", "101"], environment: [:])
        }
        #expect(throws: ConfigurationError.invalidValue(flag: "fanout-window-ms", value: "-1", expected: "a whole number from 0 to 100")) {
            try ServerConfiguration.parse(arguments: [], environment: ["PARLEY_FANOUT_WINDOW_MS": "-1"])
        }
    }

    @Test func helpListsEveryFlagAndVariable() {
        let help = ServerConfiguration.helpText
        for option in ServerConfiguration.options {
            #expect(help.contains("--\(option.flag)"))
            #expect(help.contains(option.environment))
        }
        #expect(help.contains("PARLEY_HOST") && help.contains("PARLEY_WEB") && help.contains("PARLEY_LOOPS"))
    }
}

@Suite struct OperationsGuideTests {
    static func guide() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("docs/operations.md"), encoding: .utf8)
    }

    /// Every setting must be documented where operators look.
    @Test func operationsGuideListsEverySetting() throws {
        let guide = try Self.guide()
        for option in ServerConfiguration.options {
            #expect(guide.contains("`--\(option.flag)`"), "docs/operations.md lacks --\(option.flag)")
            #expect(guide.contains("`\(option.environment)`"), "docs/operations.md lacks \(option.environment)")
        }
    }

    /// The table between the settings markers is exactly what the option table generates
    /// (defaults, meanings and what happens at each limit), so the guide cannot drift.
    @Test func settingsTableMatchesTheOptionTable() throws {
        let guide = try Self.guide()
        let begin = try #require(guide.range(of: "<!-- settings:begin"))
        let afterMarker = try #require(guide.range(of: "-->\n", range: begin.upperBound..<guide.endIndex))
        let end = try #require(guide.range(of: "\n<!-- settings:end -->", range: afterMarker.upperBound..<guide.endIndex))
        let documented = String(guide[afterMarker.upperBound..<end.lowerBound])
        #expect(documented == ServerConfiguration.markdownTable,
                "docs/operations.md is out of date: run python3 scripts/update-settings-doc.py")
    }

    /// A limit without a documented consequence is one operators cannot plan for.
    @Test func everyLimitSaysWhatHappensWhenExceeded() {
        let notLimits: Set = ["host", "port", "data", "web", "loops", "blocking-threads", "log-level", "allowed-origins",
                              "shutdown-timeout", "sms-sender", "sms-webhook-url", "sms-code-length", "password-cost", "db-readers", "db-writers", "store",
                              "public-url", "xmpp-port", "xmpp-domain", "xmpp-allow-plaintext", "xmpp-tls-cert", "xmpp-tls-key",
                              "tls-cert", "tls-key", "xmpp-tls-port", "hsts-max-age", "nats", "node-id", "cluster-heartbeat", "trusted-proxies",
                              "push-contact", "push-gateway-url", "push-allow-loopback",
                              "erase-messages-on-delete", "admin-socket", "message-log", "message-log-apply"]
        for option in ServerConfiguration.options where !notLimits.contains(option.flag) {
            #expect(!option.whenExceeded.isEmpty, "--\(option.flag) does not say what happens when it is exceeded")
        }
        #expect(ServerConfiguration.markdownTable.contains("| when exceeded |"))
    }
}
