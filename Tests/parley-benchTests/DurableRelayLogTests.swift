import Foundation
import Glibc
import ParleyLog
import ParleyNet
import ParleySync
import Synchronization
import TestSupport
import Testing
@testable import parley_bench

/// The durable relay (`relay-server --durable`) against a real relay on a free port: an ack
/// comes only once the message is durable, and the log holds every acknowledged message,
/// each conversation gapless and in each sender's order.
@Suite(.serialized) struct DurableRelayLogTests {
    /// Messages each client sends.
    private let perClient = 200

    @Test func everyAcknowledgedMessageIsDurableBeforeItsAckAndInTheLogInOrder() async throws {
        try await onOwnThread {
            let directory = NSTemporaryDirectory() + "durable-relay-test-" + UUID().uuidString
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let group = try EventLoopGroup(loopCount: 2, name: "durable-test")
            defer { group.shutdown() }
            let hub = try RelayHub(durable: DurableRelayLog.Settings(directory: directory, segmentBytes: 16 * 1024, batchLimit: 64))
            let relay = try HTTPServer(group: group, address: try SocketAddress(host: "127.0.0.1", port: 0),
                                       configuration: HTTPServer.Configuration(originPolicy: .allowAny), responder: RelayResponder(hub: hub))
            let durable = try #require(hub.durable)
            let target = MessagingSettings.Target(server: .durableRelay, address: relay.localAddress, pid: nil)
            let set = try ConnectionSet(count: 4, dialect: .relay, loops: 2)
            defer { set.shutdown() }
            #expect(try ScenarioSetup.connect(set, target: target, sources: []) == 0)
            try ScenarioSetup.pairUp(set, dialect: .relay)

            // Each ack is checked against the log when it arrives: its conversation must already
            // hold (durably: the index grows only after the sync) as many records as it has acks.
            let acksByConversation = PThreadMutex<[UInt64: UInt64]>([:])
            let early = Atomic<Int>(0)
            let count = perClient
            let outcomes = set.perform(timeout: .seconds(60)) { (client: BenchConnection, done: @escaping (Int) -> Void) in
                let conversation = RelayHub.conversation(between: Substring("u\(client.index)"), and: Substring(client.route))
                var acks = 0
                client.onIncoming = { incoming in
                    guard case .ack = incoming else { return }
                    let acked = acksByConversation.withLock { acks in
                        acks[conversation, default: 0] += 1
                        return acks[conversation]!
                    }
                    if (try? durable.log.lastSeq(of: conversation)) ?? 0 < acked { early.add(1, ordering: .relaxed) }
                    acks += 1
                    if acks == count { done(acks) }
                }
                for number in 1...count {
                    // The stamp names the sender and the message's place in its order.
                    _ = client.sendMeasured(now: UInt64(client.index) * 1_000_000 + UInt64(number), step: 1, size: 64)
                }
            }
            #expect(outcomes.map { $0 ?? 0 } == Array(repeating: perClient, count: 4))
            #expect(early.load(ordering: .relaxed) == 0)
            set.close()
            _ = relay.shutdown(timeout: .seconds(1))
            durable.close()
            #expect(durable.log.statistics.records == 4 * perClient)
            #expect(durable.log.statistics.syncs < 4 * perClient)

            // Reopened from disk: two conversations (one per pair), gapless, each sender's
            // messages in the order sent.
            let reopened = try SegmentLog(directory: directory)
            defer { reopened.close() }
            let conversations = try reopened.conversations()
            #expect(conversations.count == 2)
            var next: [UInt64: UInt64] = [:]
            for conversation in conversations {
                let records = try reopened.records(of: conversation, after: 0, limit: 10 * perClient)
                #expect(records.map(\.seq) == Array(1...UInt64(2 * perClient)))
                for record in records {
                    let sentAt = try #require(record.payload.withUnsafeBytes { MessageStamp.read($0, at: 0) }).sentAt
                    let (sender, number) = sentAt.quotientAndRemainder(dividingBy: 1_000_000)
                    #expect(number == next[sender, default: 0] + 1)
                    next[sender] = number
                }
            }
            #expect(next == [0: UInt64(perClient), 1: UInt64(perClient), 2: UInt64(perClient), 3: UInt64(perClient)])
            #expect(reopened.segmentCount > 1)
        }
    }

    /// A `relay-server --durable` child killed with SIGKILL while messages stream in: the
    /// log reopened here holds every message it acknowledged, each conversation gapless.
    /// (A kill keeps what was written but not synced, so this catches an ack before the
    /// write; the ack after the sync is the test above's.)
    @Test func killNineLosesNothingAcknowledged() async throws {
        try await onOwnThread {
            let directory = NSTemporaryDirectory() + "durable-relay-kill-test-" + UUID().uuidString
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let child = try ChildProcess(arguments: [try BenchExecutable.path(), "relay-server", "--port", "0", "--loops", "2",
                                                     "--durable", directory])
            defer { child.stop(grace: .zero) }
            var port: Int?
            for _ in 0..<300 where port == nil {
                ChildProcess.waitForOutput([child], timeoutMilliseconds: 100)
                for line in child.readLines() {
                    if let found = line.range(of: "port=") { port = Int(line[found.upperBound...].prefix { $0.isNumber }) }
                }
            }
            let target = MessagingSettings.Target(server: .durableRelay, address: try SocketAddress(host: "127.0.0.1", port: try #require(port)),
                                                  pid: nil)
            let set = try ConnectionSet(count: 4, dialect: .relay, loops: 2)
            defer { set.shutdown() }
            #expect(try ScenarioSetup.connect(set, target: target, sources: []) == 0)
            try ScenarioSetup.pairUp(set, dialect: .relay)
            let acknowledged = PThreadMutex<Set<UInt64>>([])
            let count = 20 * perClient
            _ = set.perform { (client: BenchConnection, done: @escaping (Bool) -> Void) in
                client.onIncoming = { incoming in
                    if case .ack(let sentAt) = incoming { acknowledged.withLock { _ = $0.insert(sentAt) } }
                }
                for number in 1...count {
                    _ = client.sendMeasured(now: UInt64(client.index) * 1_000_000 + UInt64(number), step: 1, size: 64)
                }
                done(true)
            }
            // Let part of the stream be acknowledged, then kill the relay mid-stream.
            for _ in 0..<500 where acknowledged.withLock({ $0.count }) < 100 { usleep(2_000) }
            kill(child.pid, SIGKILL)
            child.stop(grace: .seconds(5))
            set.close()
            let acked = acknowledged.withLock { $0 }
            #expect(acked.count >= 100)

            let reopened = try SegmentLog(directory: directory)
            defer { reopened.close() }
            var stored = Set<UInt64>()
            for conversation in try reopened.conversations() {
                let records = try reopened.records(of: conversation, after: 0, limit: 8 * count)
                #expect(records.map(\.seq) == Array(1...UInt64(records.count)))
                for record in records {
                    if let stamp = record.payload.withUnsafeBytes({ MessageStamp.read($0, at: 0) }) { stored.insert(stamp.sentAt) }
                }
            }
            let lost = acked.subtracting(stored).count
            #expect(lost == 0)
        }
    }

    @Test func conversationIsTheSameBothWaysAndDiffersBetweenPairs() {
        #expect(RelayHub.conversation(between: "u0", and: "u1") == RelayHub.conversation(between: "u1", and: "u0"))
        #expect(RelayHub.conversation(between: "u0", and: "u1") != RelayHub.conversation(between: "u2", and: "u3"))
        #expect(RelayHub.conversation(between: "u0", and: "u12") != RelayHub.conversation(between: "u01", and: "u2"))
    }

    @Test func durableOptionsNeedADirectory() throws {
        func parse(_ arguments: [String]) throws -> DurableRelayLog.Settings? {
            try RelayServerCommand.durableSettings(CommandLineOptions(arguments: arguments, valueNames: RelayServerCommand.valueOptions,
                                                                      switchNames: []))
        }
        #expect(try parse([]) == nil)
        let settings = try #require(try parse(["--durable", "/some/dir", "--durable-batch", "8", "--durable-segment-bytes", "65536"]))
        #expect(settings.directory == "/some/dir")
        #expect(settings.batchLimit == 8)
        #expect(settings.segmentBytes == 65536)
        #expect(throws: BenchError.self) { try parse(["--durable-batch", "8"]) }
        #expect(throws: BenchError.self) { try parse(["--durable", "d", "--durable-batch", "0"]) }
    }
}
