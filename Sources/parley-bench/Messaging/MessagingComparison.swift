/// Runs one messaging scenario against each server given (Parley, the bare relay, NATS) with
/// the same clients, sizes and rates, and prints one table with Parley's figures as ratios
/// of each baseline's.
enum MessagingComparison {
    /// Sets up the clients of one server; returns the senders and the deliveries each
    /// message should make.
    typealias Setup = (ConnectionSet, MessagingSettings.Target) throws -> (senders: [BenchConnection], fanout: Int)

    /// `kind` names the scenario in the raw data for the aims (`direct`, `group`).
    static func run(scenario: String, kind: String, clients: Int, settings: MessagingSettings, setup: Setup) throws -> Int32 {
        let descriptorLimit = ProcessSetup.raiseDescriptorLimit()
        guard clients + 64 <= descriptorLimit else {
            throw BenchError.usage("\(clients) clients need more descriptors than this process may open (\(descriptorLimit))")
        }
        var outcomes: [MessagingRunner.Outcome] = []
        for target in settings.targets {
            let at = target.nodes.map { "\($0)" }.joined(separator: ", ")
            Console.line("\(scenario) → \(target.server.rawValue) at \(at): \(Format.count(clients)) clients")
            let set = try ConnectionSet(count: clients, dialect: target.dialect, loops: settings.loops)
            defer { set.shutdown() }
            if target.dialect == .parley { set.tls = settings.tls }
            let connectErrors = try ScenarioSetup.connect(set, target: target, sources: settings.sources)
            let (senders, fanout) = try setup(set, target)
            // Setup traffic (system messages, presence) settles before measuring.
            ProcessSetup.sleep(milliseconds: 500)
            outcomes.append(try MessagingRunner.run(set, senders: senders, fanout: fanout, target: target,
                                                    settings: settings, connectErrors: connectErrors))
            for line in ErrorTally.lines(set.errors.snapshot) { Console.line("  error: \(line)") }
            set.close()
        }
        print(scenario: scenario, outcomes: outcomes, settings: settings)
        try record(scenario: scenario, kind: kind, outcomes: outcomes, settings: settings)
        let anyErrors = outcomes.contains { outcome in
            settings.findMax ? outcome.maxHeld == nil : outcome.steps.contains { $0.errors > 0 }
        }
        return anyErrors ? 1 : 0
    }

    private static func print(scenario: String, outcomes: [MessagingRunner.Outcome], settings: MessagingSettings) {
        Console.line("")
        Console.line("\(scenario): \(settings.size)-byte messages, \(settings.loops) client loop(s), "
            + "\(settings.warmup.seconds) s warm-up + \(settings.duration.seconds) s measured per step")
        var table = ResultTable(headers: ["server"] + MessagingStep.headers)
        for outcome in outcomes {
            for step in outcome.steps { table.add([outcome.server.rawValue] + step.cells) }
        }
        table.print(markdown: settings.markdown)
        if settings.findMax {
            for outcome in outcomes {
                Console.line("\(outcome.server.rawValue): highest rate that held (delivery p99 ≤ "
                    + "\(Format.latency(nanoseconds: settings.p99Bound)), ≥ 95 % delivered in time, no errors): "
                    + maxHeldText(outcome) + " messages/s")
            }
        }
        guard let parley = outcomes.first(where: { $0.server == .parley }) else { return }
        for baseline in outcomes where baseline.server != .parley {
            Console.line("parley ÷ \(baseline.server.rawValue): " + ratios(parley, baseline, findMax: settings.findMax).map { "\($0.0) \($0.1)" }
                .joined(separator: ", "))
        }
    }

    /// The median highest rate with its spread over the searches (`none` when no rate held
    /// in most searches).
    static func maxHeldText(_ outcome: MessagingRunner.Outcome) -> String {
        guard let spread = outcome.spread else { return "none" }
        let each = outcome.searches.map { $0.map(Format.rate) ?? "none" }.joined(separator: ", ")
        let median = outcome.maxHeld.map(Format.rate) ?? "none"
        guard spread.count > 1 else { return median }
        return "\(median) (median of \(spread.count) searches: \(each))"
    }

    /// Parley's figures over a baseline's. Latency and CPU are compared at the same rate: the
    /// headline steps at a fixed rate, or with `--find-max` the first step (both searches
    /// start there); the highest rates are compared as they are.
    static func ratios(_ parley: MessagingRunner.Outcome, _ baseline: MessagingRunner.Outcome, findMax: Bool) -> [(String, String)] {
        func ratio(_ a: Double, _ b: Double) -> String { b > 0 ? Format.significant(a / b) + "×" : "—" }
        var list: [(String, String)] = []
        let same = findMax ? (parley.steps.first, baseline.steps.first) : (parley.headline, baseline.headline)
        guard let mine = same.0, let theirs = same.1 else { return list }
        if findMax {
            list.append(("max rate", ratio(parley.maxHeld ?? 0, baseline.maxHeld ?? 0)))
        } else {
            list.append(("deliveries/s", ratio(mine.deliveriesPerSecond, theirs.deliveriesPerSecond)))
        }
        let at = findMax ? " at \(Format.rate(mine.rate))/s" : ""
        list.append(("p50" + at, ratio(Double(mine.result.deliveryLatency.value(atQuantile: 0.5)),
                                       Double(theirs.result.deliveryLatency.value(atQuantile: 0.5)))))
        list.append(("p99" + at, ratio(Double(mine.p99), Double(theirs.p99))))
        if let parleyCPU = mine.serverCPU, let baselineCPU = theirs.serverCPU {
            list.append(("server CPU" + at, ratio(parleyCPU, baselineCPU)))
        }
        return list
    }

    private static func record(scenario: String, kind: String, outcomes: [MessagingRunner.Outcome], settings: MessagingSettings) throws {
        guard let log = settings.results else { return }
        let parley = outcomes.first { $0.server == .parley }
        for outcome in outcomes {
            guard let step = outcome.headline else { continue }
            let name = "\(scenario) → \(outcome.server.rawValue)"
            let latency = step.result.deliveryLatency
            if settings.findMax {
                try log.append(scenario: name, metric: "max rate held (p99 ≤ \(Format.latency(nanoseconds: settings.p99Bound)))",
                               value: maxHeldText(outcome))
                // The raw numbers the aims are judged on (IssueAims): the median highest
                // rate, its deliveries, and the server's CPU per message there.
                let bound = Double(settings.p99Bound) / 1_000_000
                let server = outcome.server.rawValue
                try log.appendDatum(IssueAims.maxRateKey(kind, server, boundMilliseconds: bound), outcome.maxHeld ?? 0)
                try log.appendDatum(IssueAims.deliveriesKey(kind, server, boundMilliseconds: bound),
                                    (outcome.maxHeld ?? 0) * Double(step.fanout))
                if outcome.maxHeld != nil, let cpu = step.serverMicrosecondsPerMessage {
                    try log.appendDatum(IssueAims.cpuKey(kind, server, boundMilliseconds: bound), cpu)
                }
            }
            try log.append(scenario: name, metric: "sent/s → deliveries/s at \(Format.rate(step.rate))/s",
                           value: Format.rate(Double(step.result.sentInWindow) / step.duration) + " → " + Format.rate(step.deliveriesPerSecond))
            try log.append(scenario: name, metric: "delivery p50 / p99 / p99.9 / max",
                           value: [0.5, 0.99, 0.999].map { Format.latency(nanoseconds: latency.value(atQuantile: $0)) }
                            .joined(separator: " / ") + " / " + Format.latency(nanoseconds: latency.max))
            if step.acknowledged {
                try log.append(scenario: name, metric: "ack p50 / p99",
                               value: Format.latency(nanoseconds: step.result.ackLatency.value(atQuantile: 0.5)) + " / "
                                + Format.latency(nanoseconds: step.result.ackLatency.value(atQuantile: 0.99)))
            }
            try log.append(scenario: name, metric: "errors", value: Format.count(step.errors))
            if outcome.server != .parley, let parley {
                try log.append(scenario: name, metric: "parley ÷ \(outcome.server.rawValue)",
                               value: ratios(parley, outcome, findMax: settings.findMax).map { "\($0.0) \($0.1)" }.joined(separator: ", "))
            }
        }
    }
}
