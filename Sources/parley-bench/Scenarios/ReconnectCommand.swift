import Foundation
import ParleyNet
import ParleyProtocol
import Synchronization

/// `reconnect`: N clients drop at once, their friends send them messages while they are
/// away, then they all reconnect at once, sign in and `sync`; measures the time until every
/// one of them holds every message it missed.
enum ReconnectCommand: BenchCommand {
    static let name = "reconnect"
    static let summary = "N clients drop, miss messages, reconnect at once and sync: time until all have everything"
    static let help = """
        --port P            parley serve's port (required)
        --host H            its loopback address (default 127.0.0.1)
        --clients N         clients that drop and come back, each with a friend who stays (default 1000)
        --missed K          messages each misses, at most the server's sync page of 100 (default 10)
        --loops N           client event loops (default 2)
        --source-ips A-B    bind client sockets to these loopback addresses, round-robin
        --window N          handshakes in flight per loop while reconnecting (default 1000)
        --server-pid N      also report the server's CPU use while they reconnect
        --results FILE      append the headline numbers to FILE (see the report command)
        """
    static let valueOptions: Set<String> = ["port", "host", "clients", "missed", "loops", "source-ips", "window", "server-pid", "results"]

    /// The part of a `sync` response the scenario checks.
    static func run(_ options: CommandLineOptions) throws -> Int32 {
        let host = try options.string("host", default: "127.0.0.1")
        let target = MessagingSettings.Target(server: .parley,
                                              address: try LoopbackAddresses.target(host: host, port: options.int("port", in: 1...65535)),
                                              pid: options.optionalString("server-pid") == nil ? nil
                                                : Int32(try options.int("server-pid", in: 1...Int(Int32.max))))
        let clients = try options.int("clients", default: 1000, in: 1...9_000)
        let missed = try options.int("missed", default: 10, in: 1...100)
        let window = try options.int("window", default: 1000, in: 1...100_000)
        var sources: [SocketAddress] = []
        if let range = options.optionalString("source-ips") {
            for address in try LoopbackAddresses.range(range) { sources.append(try LoopbackAddresses.target(host: address, port: 0)) }
        }
        ProcessSetup.raiseDescriptorLimit()

        Console.line("reconnect: \(Format.count(clients)) clients and their friends at \(target.address)")
        let set = try ConnectionSet(count: 2 * clients, dialect: .parley, loops: try options.int("loops", default: 2, in: 1...64))
        defer { set.shutdown() }
        let connectErrors = try ScenarioSetup.connect(set, target: target, sources: sources)
        try ScenarioSetup.pairUp(set, dialect: .parley)
        let senders = set.connections.filter { $0.index % 2 == 0 }
        let returning = set.connections.filter { $0.index % 2 == 1 }

        // What each returning client holds: the last seq of its 1:1 conversation.
        let held = set.perform(returning) { (client: BenchConnection, done: @escaping (Int64?) -> Void) in
            client.request(Op.Sync.self, SyncParameters(since: [:])) { result in
                done((try? result.get())?.conversations.first { $0.id.description == client.route }?.lastSeq)
            }
        }
        guard held.allSatisfy({ ($0 ?? nil) != nil }) else {
            throw BenchError.failed("the first sync failed for \(held.filter { ($0 ?? nil) == nil }.count) clients")
        }
        let lastSeq = Dictionary(uniqueKeysWithValues: zip(returning.map(\.index), held.map { $0!! }))

        Console.line("reconnect: \(Format.count(clients)) clients drop at once")
        set.close(returning)
        Console.line("reconnect: their friends send \(missed) messages each")
        let sendStart = ContinuousClock.now
        let sendResults = set.perform(senders) { (client: BenchConnection, done: @escaping (Int) -> Void) in
            var acked = 0, answered = 0
            for number in 0..<missed {
                let text = MessageStamp.text(sentAt: MonotonicClock.now(), step: number, size: 64)
                let parameters = SendParameters(conversationId: ConversationID(string: client.route) ?? ConversationID(0),
                                                clientId: "r\(client.index)-\(number)", kind: .text, text: text)
                client.request(Op.MessageSend.self, parameters) { result in
                    answered += 1
                    if case .success = result { acked += 1 }
                    if answered == missed { done(acked) }
                }
            }
        }
        let stored = sendResults.reduce(0) { $0 + ($1 ?? 0) }
        Console.line("reconnect: \(Format.count(stored)) of \(Format.count(clients * missed)) messages stored in "
            + "\(Format.significant((ContinuousClock.now - sendStart).seconds)) s")

        // Everyone comes back at once: connect, auth, sync, count what arrived.
        let completion = LatencyHistogram()
        let state = Mutex((histogram: completion, complete: 0, recovered: 0, failures: [String: Int]()))
        let serverBefore = target.pids.first.flatMap { try? ProcessStats.read(pid: $0).cpuTicks }
        let start = MonotonicClock.now()
        let opened = set.open(returning, target: target.address, path: ScenarioSetup.parleyPath, sources: sources, window: window) { client in
            client.request(Op.Auth.self, AuthParameters(token: client.token)) { auth in
                if let reason = auth.failureReason {
                    state.withLock { $0.failures[reason, default: 0] += 1 }
                    return
                }
                let since = lastSeq[client.index] ?? 0
                let parameters = SyncParameters(since: [client.route: since])
                client.request(Op.Sync.self, parameters) { synced in
                    let now = MonotonicClock.now()
                    guard case .success(let result) = synced else {
                        state.withLock { $0.failures[synced.failureReason ?? "sync", default: 0] += 1 }
                        return
                    }
                    let got = result.messages.filter { $0.conversationId.description == client.route && $0.seq > since
                        && $0.text?.hasPrefix("b|") == true }.count
                    state.withLock { state in
                        state.recovered += got
                        if got >= missed {
                            state.complete += 1
                            state.histogram.record(now - start)
                        } else {
                            state.failures["sync returned \(got) of \(missed) missed messages", default: 0] += 1
                        }
                    }
                }
            }
        }
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            let settled = state.withLock { $0.complete + $0.failures.values.reduce(0, +) }
            if settled + (clients - opened) >= clients { break }
            usleep(5_000)
        }
        let elapsed = Double(MonotonicClock.now() - start) / 1e9
        let serverAfter = target.pids.first.flatMap { try? ProcessStats.read(pid: $0).cpuTicks }
        let outcome = state.withLock { $0 }
        let errors = (clients - outcome.complete) + connectErrors
        let histogram = outcome.histogram

        var table = ResultTable(headers: ["measure", "value"])
        table.add(["clients back with every missed message", "\(Format.count(outcome.complete)) of \(Format.count(clients))"])
        table.add(["messages recovered by sync", "\(Format.count(outcome.recovered)) of \(Format.count(clients * missed))"])
        table.add(["time until all had everything", Format.latency(nanoseconds: histogram.max)])
        table.add(["per client p50 / p90 / p99", [0.5, 0.9, 0.99].map { Format.latency(nanoseconds: histogram.value(atQuantile: $0)) }
                    .joined(separator: " / ")])
        if let serverBefore, let serverAfter {
            table.add(["server CPU meanwhile", Format.percent(Double(serverAfter - serverBefore) / Double(ProcessStats.ticksPerSecond) / elapsed * 100)])
        }
        table.add(["errors", Format.count(errors)])
        Console.line("")
        table.print()
        for line in ErrorTally.lines(outcome.failures.merging(set.errors.snapshot, uniquingKeysWith: +)) { Console.line("  error: \(line)") }

        if let path = options.optionalString("results") {
            let log = ResultLog(path: path)
            let scenario = "reconnect \(Format.count(clients)) clients, \(missed) missed each"
            try log.append(scenario: scenario, metric: "time until all had everything", value: Format.latency(nanoseconds: histogram.max))
            try log.append(scenario: scenario, metric: "per client p50 / p99",
                           value: Format.latency(nanoseconds: histogram.value(atQuantile: 0.5)) + " / "
                            + Format.latency(nanoseconds: histogram.value(atQuantile: 0.99)))
            try log.append(scenario: scenario, metric: "errors", value: Format.count(errors))
        }
        set.close()
        return errors == 0 ? 0 : 1
    }
}
