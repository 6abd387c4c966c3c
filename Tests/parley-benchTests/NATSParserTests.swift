import Testing
@testable import parley_bench

@Suite struct NATSParserTests {
    @Test func readsMessagesSplitAnywhere() throws {
        let stream = Array("INFO {\"server_id\":\"x\"}\r\nMSG bench.g 1 5\r\nhello\r\nPING\r\nMSG a.b 7 inbox.1 3\r\nabc\r\n+OK\r\nPONG\r\n".utf8)
        // Every split point must give the same events.
        for cut in 0...stream.count {
            var parser = NATSParser()
            var events = try parser.feed(stream[..<cut])
            events += try parser.feed(stream[cut...])
            #expect(events == [.info, .message(subject: "bench.g", payload: Array("hello".utf8)), .ping,
                               .message(subject: "a.b", payload: Array("abc".utf8)), .ok, .pong])
        }
    }

    @Test func payloadsMayHoldLineBreaks() throws {
        var parser = NATSParser()
        let events = try parser.feed(Array("MSG s 1 4\r\na\r\nb\r\n".utf8))
        #expect(events == [.message(subject: "s", payload: Array("a\r\nb".utf8))])
    }

    @Test func errorsAreReported() throws {
        var parser = NATSParser()
        #expect(try parser.feed(Array("-ERR 'Unknown Protocol Operation'\r\n".utf8)) == [.error("Unknown Protocol Operation")])
    }

    @Test func rejectsWhatIsNotNATS() {
        var unknown = NATSParser()
        #expect(throws: NATSParser.ParseError.self) { try unknown.feed(Array("HELLO there\r\n".utf8)) }
        var badCount = NATSParser()
        #expect(throws: NATSParser.ParseError.self) { try badCount.feed(Array("MSG s 1 x\r\n".utf8)) }
        var noCRLF = NATSParser()
        #expect(throws: NATSParser.ParseError.self) { try noCRLF.feed(Array("MSG s 1 2\r\nabcd".utf8)) }
    }

    @Test func clientFramesFollowTheProtocol() {
        #expect(NATSFrames.publish("g", payload: "héllo") == "PUB g 6\r\nhéllo\r\n")
        #expect(NATSFrames.subscribe("g", sid: 3) == "SUB g 3\r\n")
        #expect(NATSFrames.connect.hasPrefix("CONNECT {") && NATSFrames.connect.hasSuffix("}\r\n"))
        #expect(NATSFrames.connect.contains("\"echo\":false"))
    }
}
