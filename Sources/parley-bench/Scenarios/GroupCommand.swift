/// `group`: one group whose members are all online, a few of them sending at a fixed total
/// rate; every message fans out to every other member. Driven against Parley, the bare relay
/// and NATS with the same sizes and rates.
enum GroupCommand: BenchCommand {
    static let name = "group"
    static let summary = "fan-out in one group of S online members: deliveries/s and delivery latency"
    static let help = """
        --members S         group size, one WebSocket each (default 1000)
        --senders K         members that send (default 4)
        --nats-port P       also drive nats-server's WebSocket listener at this port
        --nats-pid N        and report its CPU use

        """ + MessagingSettings.help
    static let valueOptions = MessagingSettings.valueOptions.union(["members", "senders", "nats-port", "nats-pid"])
    static let switchOptions = MessagingSettings.switchOptions

    static func run(_ options: CommandLineOptions) throws -> Int32 {
        let settings = try MessagingSettings.parse(options, servers: [.parley, .relay, .nats], defaultBoundMilliseconds: 100)
        let members = try options.int("members", default: 1000, in: 2...100_000)
        let senders = try options.int("senders", default: 4, in: 1...members)
        return try MessagingComparison.run(scenario: "group of \(Format.count(members)), \(senders) senders", kind: "group", clients: members,
                                           settings: settings) { set, target in
            try ScenarioSetup.formGroup(set, dialect: target.dialect)
            return (Array(set.connections.prefix(senders)), members - 1)
        }
    }
}
