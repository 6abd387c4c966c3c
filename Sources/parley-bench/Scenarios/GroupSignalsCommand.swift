import ParleyNet
import ParleyProtocol
import Synchronization

/// `group-signals`: what typing notices and moving read markers cost in one big group whose
/// members are all online. Three phases of the same length on one server: idle (the
/// baseline), `T` members sending `typing.start` every few seconds, then members moving
/// their read markers at a fixed total rate over messages sent before the phase. Each phase
/// reports the signals sent, the events they caused on every client, and the server's CPU
/// above the idle baseline per signal.
enum GroupSignalsCommand: BenchCommand {
    static let name = "group-signals"
    static let summary = "typing notices and read markers in one group of S online members: events/s and server CPU"
    static let help = """
        --members S            group size, one WebSocket each (default 1000)
        --typers T             members that type (default 50)
        --typing-every S       seconds between one typer's typing.start notices (default 3)
        --reads-per-second R   read markers moved per second over all members but the
                               first, who sent the messages they read (default 50)
        --duration S           seconds each phase is measured (default 10)
        --gap S                seconds between phases, so that the typing notices' expiry
                               (the server's --typing-timeout, 6 s by default) falls
                               between them (default 8)
        --parley-port P, --parley-pid N, --host H, --source-ips A-B, --loops N, --results FILE,
        and the TLS options, as for `direct`

        """ + BenchTLS.help
    static let valueOptions: Set<String> = Set(["members", "typers", "typing-every", "reads-per-second", "gap", "parley-port", "parley-pid",
                                                "host", "source-ips", "duration", "loops", "results"]).union(BenchTLS.valueOptions)
    static let switchOptions = BenchTLS.switchOptions

    static func run(_ options: CommandLineOptions) throws -> Int32 {
        let settings = try MessagingSettings.parse(options, servers: [.parley], defaultBoundMilliseconds: 100)
        let target = settings.targets[0]
        let members = try options.int("members", default: 1000, in: 2...19_000)
        let typers = try options.int("typers", default: 50, in: 1...members)
        let typingEvery = try options.double("typing-every", default: 3, in: 0.1...600)
        let readsPerSecond = try options.double("reads-per-second", default: 50, in: 0.1...100_000)
        let seconds = settings.duration.seconds
        let gap = try options.double("gap", default: 8, in: 0...600)
        // Enough messages that no reader runs out of markers to move during the phase.
        let readable = max(2, Int((readsPerSecond * seconds / Double(members - 1)).rounded(.up)) + 2)
        let scenario = "group-signals \(Format.count(members)) members"

        let set = try ConnectionSet(count: members, dialect: .parley, loops: settings.loops)
        defer { set.shutdown() }
        set.tls = settings.tls
        Console.line("\(scenario) → parley at \(target.address): \(Format.count(members)) clients")
        _ = try ScenarioSetup.connect(set, target: target, sources: settings.sources)
        try ScenarioSetup.formGroup(set, dialect: .parley)
        let sender = set.connections[0]
        let seqs = try sendReadable(readable, from: sender, in: set)
        let tally = SignalTally()
        _ = set.perform { (client: BenchConnection, done: @escaping (Bool) -> Void) in
            client.onEvent = { bytes in tally.count(bytes) }
            client.onSignalReply = { ok in tally.answered(ok) }
            done(true)
        }
        // The joins' notices and the messages above reach everyone before measuring.
        ProcessSetup.sleep(milliseconds: 2000)

        let idle = measure("idle", settings: settings, target: target, tally: tally) {}
        ProcessSetup.sleep(milliseconds: Int(gap * 1000))
        let typing = measure("typing: \(typers) typers every \(Format.significant(typingEvery)) s", settings: settings,
                             target: target, tally: tally) {
            start(set.connections.prefix(typers), rate: Double(typers) / typingEvery, seconds: seconds) { client, _ in
                ParleyFrames.signal(Op.TypingStart.self, id: "typing", ConversationReference(conversationId: conversation(of: client)))
            }
        }
        ProcessSetup.sleep(milliseconds: Int(gap * 1000))
        let reads = measure("read markers: \(Format.significant(readsPerSecond))/s", settings: settings, target: target,
                            tally: tally) {
            start(set.connections.dropFirst(), rate: readsPerSecond, seconds: seconds) { client, turn in
                ParleyFrames.signal(Op.ConversationRead.self, id: "read",
                                    ReadParameters(conversationId: conversation(of: client), seq: seqs[min(turn, seqs.count - 1)]))
            }
        }
        set.close()
        for phase in [typing, reads] {
            let line = phase.summary(idle: idle)
            Console.line("\(phase.name): \(line)")
            try settings.results?.append(scenario: scenario, metric: phase.name, value: line)
        }
        return typing.refused + reads.refused > 0 ? 1 : 0
    }

    private static func conversation(of client: BenchConnection) -> ConversationID {
        ConversationID(string: client.route) ?? ConversationID(0)
    }

    /// Sends `count` messages from `sender` into the group, one after another; their seqs.
    private static func sendReadable(_ count: Int, from sender: BenchConnection, in set: ConnectionSet) throws -> [Int64] {
        var seqs: [Int64] = []
        for number in 0..<count {
            let sent = set.perform([sender]) { (client: BenchConnection, done: @escaping (Int64?) -> Void) in
                client.request(Op.MessageSend.self, SendParameters(conversationId: conversation(of: client), clientId: "readable-\(number)",
                                                                   kind: .text, text: "read me (\(number))")) { result in
                    done(try? result.get().seq)
                }
            }
            guard let seq = sent.first.flatMap({ $0 }).flatMap({ $0 }) else { throw BenchError.failed("message.send failed") }
            seqs.append(seq)
        }
        return seqs
    }

    /// Starts, on each loop, an open-loop schedule over that loop's share of `clients`: each
    /// tick the next client (round robin) sends `frame(client, turn)`, `turn` counting that
    /// client's sends from 0.
    private static func start(_ clients: some Collection<BenchConnection>, rate: Double, seconds: Double,
                              frame: @escaping @Sendable (BenchConnection, Int) -> String?) {
        let all = Array(clients)
        let begin = MonotonicClock.now() + 10_000_000
        for loop in Set(all.map { ObjectIdentifier($0.loop) }) {
            let mine = all.filter { ObjectIdentifier($0.loop) == loop }
            let share = rate * Double(mine.count) / Double(all.count)
            guard let eventLoop = mine.first?.loop, share > 0 else { continue }
            let schedule = SignalSchedule(clients: mine, frame: frame)
            eventLoop.execute {
                let sender = OpenLoopSender(loop: eventLoop, rate: share, start: begin, duration: .seconds(seconds)) { sequence, _ in
                    schedule.send(sequence)
                }
                schedule.keep(sender)
                sender.begin()
            }
        }
    }

    /// Runs `body`, then waits the phase out (its measured seconds and one more for late
    /// answers) and reads the tally and the server's CPU over it.
    private static func measure(_ name: String, settings: MessagingSettings, target: MessagingSettings.Target, tally: SignalTally,
                                body: () -> Void) -> SignalPhase {
        let ticksBefore = target.pids.compactMap { try? ProcessStats.cpuTicks(pid: $0) }.reduce(0, +)
        let before = tally.snapshot()
        let started = ContinuousClock.now
        body()
        ProcessSetup.sleep(milliseconds: Int((settings.duration.seconds + 1) * 1000))
        let elapsed = (ContinuousClock.now - started).seconds
        let ticks = target.pids.compactMap { try? ProcessStats.cpuTicks(pid: $0) }.reduce(0, +) - ticksBefore
        let phase = SignalPhase(name: name, seconds: settings.duration.seconds, elapsed: elapsed,
                                counts: tally.snapshot() - before,
                                serverCPUSeconds: target.pids.isEmpty ? nil : Double(ticks) / Double(ProcessStats.ticksPerSecond))
        Console.line("  \(name): " + phase.summary(idle: nil))
        return phase
    }
}

/// One loop's share of a signal phase; touched only on its loop (an invariant for
/// `@unchecked Sendable`, as for `BenchConnection`).
private final class SignalSchedule: @unchecked Sendable {
    private let clients: [BenchConnection]
    private let frame: (BenchConnection, Int) -> String?
    private var turns: [Int]
    private var sender: OpenLoopSender?

    init(clients: [BenchConnection], frame: @escaping (BenchConnection, Int) -> String?) {
        self.clients = clients
        self.frame = frame
        turns = Array(repeating: 0, count: clients.count)
    }

    func keep(_ sender: OpenLoopSender) { self.sender = sender }

    func send(_ sequence: Int) {
        let index = sequence % clients.count
        defer { turns[index] += 1 }
        guard let text = frame(clients[index], turns[index]), clients[index].sendSignal(text) else { return }
    }
}

/// Counts, over all clients, the events signals cause and the answers to the signals.
final class SignalTally: Sendable {
    struct Counts {
        var typing = 0, readState = 0, other = 0, ok = 0, refused = 0

        static func - (lhs: Counts, rhs: Counts) -> Counts {
            Counts(typing: lhs.typing - rhs.typing, readState: lhs.readState - rhs.readState, other: lhs.other - rhs.other,
                   ok: lhs.ok - rhs.ok, refused: lhs.refused - rhs.refused)
        }
    }

    private static let typingEvent = Array("typing".utf8)
    private static let readEvents = ["conversation.receipt", "conversation.read"].map { Array($0.utf8) }
    private let typing = Atomic<Int>(0), readState = Atomic<Int>(0), other = Atomic<Int>(0)
    private let ok = Atomic<Int>(0), refused = Atomic<Int>(0)

    func count(_ bytes: UnsafeRawBufferPointer) {
        if ParleyFrames.isEvent(bytes, named: Self.typingEvent) {
            typing.add(1, ordering: .relaxed)
        } else if Self.readEvents.contains(where: { ParleyFrames.isEvent(bytes, named: $0) }) {
            readState.add(1, ordering: .relaxed)
        } else {
            other.add(1, ordering: .relaxed)
        }
    }

    func answered(_ accepted: Bool) {
        if accepted {
            ok.add(1, ordering: .relaxed)
        } else {
            refused.add(1, ordering: .relaxed)
        }
    }

    func snapshot() -> Counts {
        Counts(typing: typing.load(ordering: .relaxed), readState: readState.load(ordering: .relaxed),
               other: other.load(ordering: .relaxed), ok: ok.load(ordering: .relaxed), refused: refused.load(ordering: .relaxed))
    }
}

/// What one phase of `group-signals` measured.
struct SignalPhase {
    var name: String
    var seconds: Double
    var elapsed: Double
    var counts: SignalTally.Counts
    var serverCPUSeconds: Double?

    var refused: Int { counts.refused }

    /// Signals answered, the events they caused per second, and the server's CPU per signal
    /// above the idle phase's.
    func summary(idle: SignalPhase?) -> String {
        let signals = counts.ok + counts.refused
        var parts = ["\(Format.rate(Double(signals) / seconds)) signals/s (\(Format.count(counts.refused)) refused)",
                     "events/s: typing \(Format.rate(Double(counts.typing) / seconds)), read state \(Format.rate(Double(counts.readState) / seconds)), other \(Format.rate(Double(counts.other) / seconds))"]
        if let cpu = serverCPUSeconds {
            parts.append("server CPU \(Format.percent(100 * cpu / elapsed))")
            if let idle, let idleCPU = idle.serverCPUSeconds, signals > 0 {
                let above = cpu - idleCPU / idle.elapsed * elapsed
                parts.append("\(Format.significant(max(0, above) / Double(signals) * 1e6)) µs a signal above idle")
            }
        }
        return parts.joined(separator: "; ")
    }
}
