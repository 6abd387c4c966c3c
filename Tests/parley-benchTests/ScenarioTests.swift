import Foundation
import Glibc
import ParleyNet
import ParleyServer
import Synchronization
import TestSupport
import Testing
@testable import parley_bench

/// The scenarios' setup and measurement against real servers on free ports: a small Parley
/// server in this process, and the bench's relay. No timing is asserted, only that every
/// message arrived and nothing went wrong.
@Suite(.serialized) struct ScenarioTests {
    private func parleyServer(pushToLoopback: Bool = false) throws -> (ParleyServer, String) {
        let directory = NSTemporaryDirectory() + "parley-bench-test-" + UUID().uuidString
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.xmppPort = 0
        configuration.dataDirectory = directory
        configuration.loops = 2
        configuration.passwordCost = "minimum"
        configuration.webRoot = directory + "/no-web"
        if pushToLoopback { configuration.pushAllowLoopback = "yes" }
        return (try ParleyServer(configuration: configuration, logger: Logger(label: "bench-test", minimumLevel: .error)), directory)
    }

    private func settings(_ target: MessagingSettings.Target) -> MessagingSettings {
        MessagingSettings(targets: [target], host: "127.0.0.1", sources: [], rate: 40, duration: .milliseconds(500),
                          warmup: .milliseconds(100), size: 64, loops: 2, drain: .seconds(10), findMax: false,
                          p99Bound: 10_000_000_000, stepFactor: 2, maxRate: 40, results: nil, markdown: false)
    }

    @Test func directBetweenTwoPairsOfFriendsDeliversEverything() async throws {
        try await onOwnThread {
            let (server, directory) = try parleyServer()
            defer {
                server.shutdown()
                try? FileManager.default.removeItem(atPath: directory)
            }
            let target = MessagingSettings.Target(server: .parley, address: try SocketAddress(host: "127.0.0.1", port: server.port), pid: nil)
            let set = try ConnectionSet(count: 4, dialect: .parley, loops: 2)
            defer { set.shutdown() }
            #expect(try ScenarioSetup.connect(set, target: target, sources: []) == 0)
            try ScenarioSetup.pairUp(set, dialect: .parley)
            // Partners share their 1:1 conversation; the two pairs do not.
            #expect(set.connections[0].route == set.connections[1].route)
            #expect(set.connections[2].route == set.connections[3].route)
            #expect(set.connections[0].route != set.connections[2].route)
            let outcome = try MessagingRunner.run(set, senders: set.connections, fanout: 1, target: target,
                                                  settings: settings(target), connectErrors: 0)
            let step = try #require(outcome.steps.first)
            #expect(step.result.sent > 0)
            #expect(step.result.delivered == step.result.sent)
            #expect(step.result.acked == step.result.sent)
            #expect(step.errors == 0)
            set.close()
        }
    }

    /// `direct --away-fraction --mark-read`: an away receiver's messages are also pushed to
    /// the load's push service; online receivers answer each delivery with a read marker.
    @Test func awayReceiversArePushedAndTheOthersMarkRead() async throws {
        try await onOwnThread {
            let (server, directory) = try parleyServer(pushToLoopback: true)
            defer {
                server.shutdown()
                try? FileManager.default.removeItem(atPath: directory)
            }
            let sink = try PushSink()
            defer { sink.stop() }
            let target = MessagingSettings.Target(server: .parley, address: try SocketAddress(host: "127.0.0.1", port: server.port), pid: nil)
            let set = try ConnectionSet(count: 4, dialect: .parley, loops: 2)
            defer { set.shutdown() }
            #expect(try ScenarioSetup.connect(set, target: target, sources: []) == 0)
            try ScenarioSetup.pairUp(set, dialect: .parley)
            try ScenarioSetup.setReadReceipts(set, on: true)
            try ScenarioSetup.sendAway(set, [set.connections[1]], target: target, sinkPort: sink.port)
            let markers = Atomic<Int>(0)
            _ = set.perform { (client: BenchConnection, done: @escaping (Bool) -> Void) in
                client.markRead = true
                client.onSignalReply = { ok in if ok { markers.add(1, ordering: .relaxed) } }
                done(true)
            }
            let senders = set.connections.filter { $0.index % 2 == 0 }
            let outcome = try MessagingRunner.run(set, senders: senders, fanout: 1, target: target, settings: settings(target), connectErrors: 0)
            let step = try #require(outcome.steps.first)
            #expect(step.result.sent > 0)
            #expect(step.result.delivered == step.result.sent)
            #expect(step.errors == 0)
            let deadline = ContinuousClock.now + .seconds(10)
            while sink.received == 0 && ContinuousClock.now < deadline { usleep(20_000) }
            #expect(sink.received > 0)
            // Both receivers (the away one's connection is open) marked what they got as read.
            #expect(markers.load(ordering: .relaxed) > 0)
            set.close()
        }
    }

    @Test func aSmallFindMaxRunsEverySearchAndReportsTheMedian() async throws {
        try await onOwnThread {
            let (server, directory) = try parleyServer()
            defer {
                server.shutdown()
                try? FileManager.default.removeItem(atPath: directory)
            }
            // The server runs in this process, so this process's CPU is the server's to settle on.
            let target = MessagingSettings.Target(server: .parley, address: try SocketAddress(host: "127.0.0.1", port: server.port),
                                                  pid: getpid())
            let set = try ConnectionSet(count: 4, dialect: .parley, loops: 2)
            defer { set.shutdown() }
            #expect(try ScenarioSetup.connect(set, target: target, sources: []) == 0)
            try ScenarioSetup.pairUp(set, dialect: .parley)
            var settings = settings(target)
            settings.findMax = true
            settings.rate = 20
            settings.maxRate = 40
            settings.searches = 2
            settings.retries = 1
            settings.duration = .milliseconds(300)
            settings.settle = ServerSettle(thresholdPercent: 90, window: .milliseconds(200), timeout: .seconds(5))
            let outcome = try MessagingRunner.run(set, senders: set.connections, fanout: 1, target: target,
                                                  settings: settings, connectErrors: 0)
            // Two searches of 20 and 40 msg/s (a failed step would add a repeat, so at least 4).
            #expect(outcome.searches.count == 2)
            #expect(outcome.steps.count >= 4)
            #expect(outcome.steps.filter { $0.held }.map(\.rate).sorted().suffix(2) == [40, 40])
            #expect(outcome.maxHeld == 40)
            #expect(outcome.headline?.rate == 40)
            #expect(outcome.headline?.serverMicrosecondsPerMessage ?? 0 > 0)
            set.close()
        }
    }

    @Test func groupFanOutThroughTheRelayReachesEveryOtherMember() async throws {
        try await onOwnThread {
            let group = try EventLoopGroup(loopCount: 2, name: "relay-test")
            defer { group.shutdown() }
            let hub = RelayHub()
            let relay = try HTTPServer(group: group, address: try SocketAddress(host: "127.0.0.1", port: 0),
                                       configuration: HTTPServer.Configuration(originPolicy: .allowAny), responder: RelayResponder(hub: hub))
            defer { _ = relay.shutdown(timeout: .seconds(1)) }
            let target = MessagingSettings.Target(server: .relay, address: relay.localAddress, pid: nil)
            let set = try ConnectionSet(count: 5, dialect: .relay, loops: 2)
            defer { set.shutdown() }
            #expect(try ScenarioSetup.connect(set, target: target, sources: []) == 0)
            try ScenarioSetup.formGroup(set, dialect: .relay)
            #expect(hub.subscriberCount(set.connections[0].route) == 5)
            let outcome = try MessagingRunner.run(set, senders: Array(set.connections.prefix(2)), fanout: 4, target: target,
                                                  settings: settings(target), connectErrors: 0)
            let step = try #require(outcome.steps.first)
            #expect(step.result.sent > 0)
            #expect(step.result.delivered == step.result.sent * 4)
            #expect(step.errors == 0)
            set.close()
            // The relay forgets closed sockets.
            var waited = 0
            while hub.subscriberCount(set.connections[0].route) > 0 && waited < 200 {
                usleep(10_000)
                waited += 1
            }
            #expect(hub.subscriberCount(set.connections[0].route) == 0)
        }
    }
}
