import Testing
@testable import parley_bench

@Suite struct CommandLineTests {
    @Test func parsesValuesSwitchesAndDefaults() throws {
        let options = try CommandLineOptions(arguments: ["--port", "8080", "--rate=10_000", "--find-max"],
                                             valueNames: ["port", "rate", "size"], switchNames: ["find-max"])
        #expect(try options.int("port") == 8080)
        #expect(try options.double("rate") == 10_000)
        #expect(try options.int("size", default: 64) == 64)
        #expect(options.flag("find-max"))
        #expect(throws: BenchError.self) { try options.int("port", in: 1...100) }
    }

    @Test func aClusterIsSeveralPortsAndPids() throws {
        let options = try CommandLineOptions(arguments: ["--parley-port", "7001,7002,7003", "--parley-pid", "11,12,13"],
                                             valueNames: MessagingSettings.valueOptions, switchNames: MessagingSettings.switchOptions)
        let settings = try MessagingSettings.parse(options, servers: [.parley, .relay], defaultBoundMilliseconds: 20)
        let target = try #require(settings.targets.first)
        #expect(target.nodes.map(\.port) == [7001, 7002, 7003])
        #expect(target.address.port == 7001)
        #expect(target.pids == [11, 12, 13])
        let single = try MessagingSettings.parse(try CommandLineOptions(arguments: ["--relay-port", "9000"], valueNames: MessagingSettings.valueOptions,
                                                                        switchNames: []), servers: [.parley, .relay], defaultBoundMilliseconds: 20)
        #expect(single.targets.first?.nodes.map(\.port) == [9000])
        #expect(single.targets.first?.pids == [])
        let bad = try CommandLineOptions(arguments: ["--parley-port", "7001,,7003"], valueNames: MessagingSettings.valueOptions, switchNames: [])
        #expect(throws: BenchError.self) { try MessagingSettings.parse(bad, servers: [.parley], defaultBoundMilliseconds: 20) }
    }

    /// The durable relay is a server of its own (`--durable-relay-port`) speaking the relay's
    /// dialect; a scenario that does not drive it refuses its port.
    @Test func theDurableRelayIsAServerOfItsOwn() throws {
        let options = try CommandLineOptions(arguments: ["--relay-port", "9000", "--durable-relay-port", "9001", "--durable-relay-pid", "42"],
                                             valueNames: MessagingSettings.valueOptions, switchNames: [])
        let settings = try MessagingSettings.parse(options, servers: [.parley, .relay, .durableRelay], defaultBoundMilliseconds: 20)
        #expect(settings.targets.map(\.server) == [.relay, .durableRelay])
        #expect(settings.targets.map(\.dialect) == [.relay, .relay])
        #expect(settings.targets.last?.pids == [42])
        #expect(throws: BenchError.self) { try MessagingSettings.parse(options, servers: [.parley, .relay, .nats], defaultBoundMilliseconds: 100) }
    }

    @Test func refusesUnknownOptions() {
        #expect(throws: BenchError.self) {
            try CommandLineOptions(arguments: ["--prot", "1"], valueNames: ["port"], switchNames: [])
        }
        #expect(throws: BenchError.self) {
            try CommandLineOptions(arguments: ["--port"], valueNames: ["port"], switchNames: [])
        }
    }

    @Test func loopbackOnly() throws {
        #expect(try LoopbackAddresses.range("127.0.0.2-127.0.0.4") == ["127.0.0.2", "127.0.0.3", "127.0.0.4"])
        #expect(try LoopbackAddresses.range("127.0.1.255-127.0.2.0") == ["127.0.1.255", "127.0.2.0"])
        #expect(throws: BenchError.self) { try LoopbackAddresses.range("10.0.0.1-10.0.0.2") }
        #expect(throws: BenchError.self) { try LoopbackAddresses.range("127.0.0.9-127.0.0.2") }
        #expect(throws: BenchError.self) { try LoopbackAddresses.target(host: "192.168.1.1", port: 80) }
        #expect(try LoopbackAddresses.target(host: "127.0.0.5", port: 80).port == 80)
    }

    @Test func workerProgressLines() {
        var progress = WorkerProgress()
        #expect(progress.consume("status opened=10 failed=2 closed=1 settled=1") == nil)
        #expect(progress.consume("error\t2\topen: refused") == nil)
        #expect(progress.consume("something else") == "something else")
        #expect(progress.open == 9)
        #expect(progress.settled)
        #expect(progress.errors == ["open: refused": 2])
    }

    @Test func tableAlignsNumbersRight() {
        var table = ResultTable(headers: ["name", "value"])
        table.add(["a", "5"])
        table.add(["bb", "1,234"])
        #expect(table.text() == "name  value\n----  -----\na         5\nbb    1,234")
        #expect(table.markdown().hasPrefix("| name | value |\n| --- | --- |"))
    }

    @Test func formats() {
        #expect(Format.count(1_234_567) == "1,234,567")
        #expect(Format.latency(nanoseconds: 1_234_000) == "1.23 ms")
        #expect(Format.bytes(3_174) == "3.10 KiB")
    }
}
