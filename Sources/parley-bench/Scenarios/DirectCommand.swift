/// `direct`: pairs of friends chatting 1:1 at a fixed total rate over Parley's native
/// protocol (and, for comparison, the same traffic through the bare relay).
enum DirectCommand: BenchCommand {
    static let name = "direct"
    static let summary = "1:1 messages between N pairs of friends at a fixed rate: ack and delivery latency"
    static let help = """
        --pairs N           pairs of friends, two WebSockets each (default 500)

        """ + MessagingSettings.help
    static let valueOptions = MessagingSettings.valueOptions.union(["pairs"])
    static let switchOptions = MessagingSettings.switchOptions

    static func run(_ options: CommandLineOptions) throws -> Int32 {
        let settings = try MessagingSettings.parse(options, dialects: [.parley, .relay], defaultBoundMilliseconds: 20)
        let pairs = try options.int("pairs", default: 500, in: 1...100_000)
        return try MessagingComparison.run(scenario: "direct \(Format.count(pairs)) pairs", kind: "direct", clients: 2 * pairs,
                                           settings: settings) { set, target in
            try ScenarioSetup.pairUp(set, dialect: target.dialect)
            return (set.connections, 1)
        }
    }
}
