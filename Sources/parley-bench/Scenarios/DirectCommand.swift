/// `direct`: pairs of friends chatting 1:1 at a fixed total rate over Parley's native
/// protocol (and, for comparison, the same traffic through the bare relay).
enum DirectCommand: BenchCommand {
    static let name = "direct"
    static let summary = "1:1 messages between N pairs of friends at a fixed rate: ack and delivery latency"
    static let help = """
        --pairs N           pairs of friends, two WebSockets each (default 500)
        --receipts on|off   (Parley) every user's read-receipt privacy choice, set before
                            the load (default: the server's default, on)
        --mark-read         (Parley) every delivered message is answered with
                            conversation.read up to it, as a client with the chat open does
        --away-fraction F   only the first client of each pair sends; of the receivers,
                            the first F (0…1) are away (Parley: a Web Push subscription to a
                            push service the load runs on loopback, and client.state
                            inactive), so each message to them is also pushed. The server
                            must run with --push-allow-loopback yes. 0: one-way, all online

        """ + MessagingSettings.help
    static let valueOptions = MessagingSettings.valueOptions.union(["pairs", "receipts", "away-fraction"])
    static let switchOptions = MessagingSettings.switchOptions.union(["mark-read"])

    static func run(_ options: CommandLineOptions) throws -> Int32 {
        let settings = try MessagingSettings.parse(options, servers: [.parley, .relay, .durableRelay], defaultBoundMilliseconds: 20)
        let pairs = try options.int("pairs", default: 500, in: 1...100_000)
        let receipts: Bool?
        switch options.optionalString("receipts") {
        case nil: receipts = nil
        case "on": receipts = true
        case "off": receipts = false
        case let other?: throw BenchError.usage("--receipts takes on or off, not '\(other)'")
        }
        let markRead = options.flag("mark-read")
        let awayFraction = options.optionalString("away-fraction") == nil ? nil : try options.double("away-fraction", in: 0...1)
        let sink = awayFraction.map { $0 > 0 } == true ? try PushSink() : nil
        defer { sink?.stop() }
        var scenario = "direct \(Format.count(pairs)) pairs"
        if let receipts { scenario += ", receipts \(receipts ? "on" : "off")" }
        if markRead { scenario += ", marked read" }
        if let awayFraction { scenario += ", one-way, \(Format.percent(awayFraction * 100)) of receivers away" }
        let pushedBefore = sink?.received ?? 0
        let status = try MessagingComparison.run(scenario: scenario, kind: "direct", clients: 2 * pairs, settings: settings) { set, target in
            try ScenarioSetup.pairUp(set, dialect: target.dialect)
            let receivers = set.connections.filter { $0.index % 2 == 1 }
            if target.dialect == .parley {
                if let receipts { try ScenarioSetup.setReadReceipts(set, on: receipts) }
                if markRead { _ = set.perform { (client: BenchConnection, done: @escaping (Bool) -> Void) in client.markRead = true; done(true) } }
                if let awayFraction, let sink {
                    let away = Array(receivers.prefix(Int((Double(receivers.count) * awayFraction).rounded())))
                    try ScenarioSetup.sendAway(set, away, target: target, sinkPort: sink.port)
                    Console.line("  \(Format.count(away.count)) receivers away with push subscriptions")
                }
            }
            guard awayFraction != nil else { return (set.connections, 1) }
            return (set.connections.filter { $0.index % 2 == 0 }, 1)
        }
        if let sink { Console.line("push service: \(Format.count(sink.received - pushedBefore)) pushes received") }
        return status
    }
}
