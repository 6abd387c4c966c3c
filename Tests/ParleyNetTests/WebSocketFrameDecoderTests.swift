import Testing
@testable import ParleyNet

@Suite struct WebSocketFrameDecoderTests {
    // RFC 6455 §5.7 examples.
    @Test func rfcSingleFrameUnmaskedTextInClientRole() {
        var decoder = WebSocketFrameDecoder(role: .client)
        #expect(decoder.decode([0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F]) == [.text("Hello")])
    }

    @Test func rfcSingleFrameMaskedTextInServerRole() {
        var decoder = WebSocketFrameDecoder(role: .server)
        #expect(decoder.decode([0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]) == [.text("Hello")])
    }

    @Test func rfcFragmentedUnmaskedText() {
        var decoder = WebSocketFrameDecoder(role: .client)
        #expect(decoder.decode([0x01, 0x03, 0x48, 0x65, 0x6C]) == [])
        #expect(decoder.decode([0x80, 0x02, 0x6C, 0x6F]) == [.text("Hello")])
    }

    @Test func rfcUnmaskedPingAndMaskedPong() {
        var client = WebSocketFrameDecoder(role: .client)
        #expect(client.decode([0x89, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F]) == [.ping(Array("Hello".utf8))])
        var server = WebSocketFrameDecoder(role: .server)
        #expect(server.decode([0x8A, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]) == [.pong(Array("Hello".utf8))])
    }

    @Test func byteAtATimeFeedingOfSeveralFrames() {
        let stream = RawFrame.clientText("héllo wörld, a bit longer than eight bytes")
            + RawFrame.client(opcode: 0x2, [1, 2, 3, 4, 5, 6, 7, 8, 9])
            + RawFrame.client(opcode: 0x9, [])
            + RawFrame.client(opcode: 0x2, [UInt8](repeating: 0xAB, count: 300))
            + RawFrame.client(opcode: 0x8, [0x03, 0xE8] + Array("bye".utf8))
        let expected: [WebSocketEvent] = [
            .text("héllo wörld, a bit longer than eight bytes"), .binary([1, 2, 3, 4, 5, 6, 7, 8, 9]), .ping([]),
            .binary([UInt8](repeating: 0xAB, count: 300)), .close(code: .normalClosure, reason: "bye"),
        ]
        var decoder = WebSocketFrameDecoder(role: .server)
        #expect(decoder.decodeByteAtATime(stream) == expected)
        var whole = WebSocketFrameDecoder(role: .server)
        #expect(whole.decode(stream) == expected)
    }

    @Test func manyFramesInOneBuffer() {
        var stream: [UInt8] = []
        for i in 0..<500 { stream += RawFrame.clientText("message \(i)") }
        var decoder = WebSocketFrameDecoder(role: .server)
        let events = decoder.decode(stream)
        #expect(events.count == 500)
        #expect(events.first == .text("message 0"))
        #expect(events.last == .text("message 499"))
        #expect(decoder.next() == nil)
    }

    @Test func everySplitPointOfAStreamGivesTheSameEvents() {
        let stream = RawFrame.client(fin: false, opcode: 0x1, Array("frag".utf8))
            + RawFrame.client(opcode: 0x9, [7])
            + RawFrame.client(opcode: 0x0, Array("mented".utf8), lengthForm: .sixteen)
            + RawFrame.client(opcode: 0x2, [9, 8, 7], lengthForm: .sixtyFour)
        let expected: [WebSocketEvent] = [.ping([7]), .text("fragmented"), .binary([9, 8, 7])]
        for cut in 0...stream.count {
            var decoder = WebSocketFrameDecoder(role: .server)
            let events = decoder.decode(Array(stream[..<cut])) + decoder.decode(Array(stream[cut...]))
            #expect(events == expected, "cut at \(cut)")
        }
    }

    @Test func fragmentedMessageWithInterleavedControlFrames() {
        var decoder = WebSocketFrameDecoder(role: .server)
        let stream = RawFrame.client(fin: false, opcode: 0x2, [1, 2])
            + RawFrame.client(opcode: 0x9, Array("are you there".utf8))
            + RawFrame.client(fin: false, opcode: 0x0, [3])
            + RawFrame.client(opcode: 0xA, [])
            + RawFrame.client(fin: false, opcode: 0x0, [])
            + RawFrame.client(opcode: 0x0, [4, 5])
        #expect(decoder.decode(stream) == [.ping(Array("are you there".utf8)), .pong([]), .binary([1, 2, 3, 4, 5])])
    }

    @Test func utf8CharacterSplitAcrossFragmentsAtEveryBytePosition() {
        // Two-, three- and four-byte characters, each cut at every position.
        for text in ["aé", "a€b", "😀", "x𝄞y"] {
            let bytes = Array(text.utf8)
            for cut in 0...bytes.count {
                var decoder = WebSocketFrameDecoder(role: .server)
                let stream = RawFrame.client(fin: false, opcode: 0x1, Array(bytes[..<cut]))
                    + RawFrame.client(opcode: 0x0, Array(bytes[cut...]))
                #expect(decoder.decodeByteAtATime(stream) == [.text(text)], "\(text) cut at \(cut)")
            }
        }
        // One fragment per byte.
        let bytes = Array("€😀".utf8)
        var stream: [UInt8] = []
        for (i, byte) in bytes.enumerated() {
            stream += RawFrame.client(fin: i == bytes.count - 1, opcode: i == 0 ? 0x1 : 0x0, [byte])
        }
        var decoder = WebSocketFrameDecoder(role: .server)
        #expect(decoder.decode(stream) == [.text("€😀")])
    }

    @Test func sixteenBitLength() {
        let payload = (0..<256).map { UInt8($0) }
        let frame = RawFrame.make(opcode: 0x2, payload: payload)
        #expect(Array(frame[0..<4]) == [0x82, 0x7E, 0x01, 0x00])  // RFC 6455 §5.7
        var decoder = WebSocketFrameDecoder(role: .client)
        #expect(decoder.decode(frame) == [.binary(payload)])
    }

    @Test func sixtyFourBitLength() {
        let payload = (0..<65536).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let frame = RawFrame.client(opcode: 0x2, payload)
        #expect(Array(frame[0..<10]) == [0x82, 0xFF, 0, 0, 0, 0, 0, 1, 0, 0])
        var decoder = WebSocketFrameDecoder(role: .server, limits: WebSocketLimits(maxFrameSize: 65536))
        #expect(decoder.decode(frame) == [.binary(payload)])
    }

    @Test func nonMinimalLengthEncodingsOfDataFramesAreAccepted() {
        // (A control frame's extended length form is refused: see the error tests.)
        var decoder = WebSocketFrameDecoder(role: .server)
        let stream = RawFrame.client(opcode: 0x1, Array("hi".utf8), lengthForm: .sixteen)
            + RawFrame.client(opcode: 0x2, [1], lengthForm: .sixtyFour)
            + RawFrame.client(opcode: 0x2, Array(repeating: 5, count: 200), lengthForm: .sixtyFour)
        #expect(decoder.decode(stream) == [.text("hi"), .binary([1]), .binary(Array(repeating: 5, count: 200))])
    }

    @Test func emptyMessagesAndFrames() {
        var decoder = WebSocketFrameDecoder(role: .server)
        let stream = RawFrame.clientText("") + RawFrame.client(opcode: 0x2, [])
            + RawFrame.client(fin: false, opcode: 0x1, []) + RawFrame.client(opcode: 0x0, [])
        #expect(decoder.decode(stream) == [.text(""), .binary([]), .text("")])
    }

    @Test func closeWithoutPayloadHasNoCode() {
        var decoder = WebSocketFrameDecoder(role: .server)
        #expect(decoder.decode(RawFrame.client(opcode: 0x8, [])) == [.close(code: nil, reason: "")])
        #expect(decoder.isFinished)
    }

    @Test func validCloseCodesAreAccepted() {
        for code: UInt16 in [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 3999, 4000, 4999] {
            var decoder = WebSocketFrameDecoder(role: .server)
            let frame = RawFrame.client(opcode: 0x8, [UInt8(code >> 8), UInt8(code & 0xFF)] + Array("¿por qué?".utf8))
            #expect(decoder.decode(frame) == [.close(code: WebSocketCloseCode(code), reason: "¿por qué?")], "\(code)")
        }
    }

    @Test func inputAfterCloseIsIgnored() {
        var decoder = WebSocketFrameDecoder(role: .server)
        let stream = RawFrame.clientText("before") + RawFrame.client(opcode: 0x8, [0x03, 0xE8])
            + RawFrame.clientText("after") + [0xFF, 0xFF]
        #expect(decoder.decode(stream) == [.text("before"), .close(code: .normalClosure, reason: "")])
        #expect(decoder.decode(RawFrame.clientText("later")) == [])
    }

    @Test func maxFrameSizeExactlyAtLimitPasses() {
        let limits = WebSocketLimits(maxFrameSize: 200, maxMessageSize: 1000)
        var decoder = WebSocketFrameDecoder(role: .server, limits: limits)
        let payload = [UInt8](repeating: 1, count: 200)
        #expect(decoder.decode(RawFrame.client(opcode: 0x2, payload)) == [.binary(payload)])
    }

    @Test func maxFrameSizePlusOneFailsFromTheHeaderAlone() {
        let limits = WebSocketLimits(maxFrameSize: 200, maxMessageSize: 1000)
        var decoder = WebSocketFrameDecoder(role: .server, limits: limits)
        let frame = RawFrame.client(opcode: 0x2, [UInt8](repeating: 1, count: 201))
        // Only the 2 + 2 + 4 header bytes: the refusal must not wait for the payload.
        #expect(decoder.decode(Array(frame[0..<8])).map(\.errorCode) == [1009])
        #expect(decoder.isFinished)
    }

    @Test func maxMessageSizeExactlyAtLimitPasses() {
        let limits = WebSocketLimits(maxFrameSize: 100, maxMessageSize: 250)
        var decoder = WebSocketFrameDecoder(role: .server, limits: limits)
        let stream = RawFrame.client(fin: false, opcode: 0x1, [UInt8](repeating: 0x61, count: 100))
            + RawFrame.client(fin: false, opcode: 0x0, [UInt8](repeating: 0x62, count: 100))
            + RawFrame.client(opcode: 0x0, [UInt8](repeating: 0x63, count: 50))
        let text = String(repeating: "a", count: 100) + String(repeating: "b", count: 100) + String(repeating: "c", count: 50)
        #expect(decoder.decode(stream) == [.text(text)])
    }

    @Test func maxMessageSizePlusOneFailsBeforeThePayloadArrives() {
        let limits = WebSocketLimits(maxFrameSize: 100, maxMessageSize: 250)
        var decoder = WebSocketFrameDecoder(role: .server, limits: limits)
        let stream = RawFrame.client(fin: false, opcode: 0x2, [UInt8](repeating: 1, count: 100))
            + RawFrame.client(fin: false, opcode: 0x0, [UInt8](repeating: 2, count: 100))
        #expect(decoder.decode(stream) == [])
        let last = RawFrame.client(opcode: 0x0, [UInt8](repeating: 3, count: 51))
        #expect(decoder.decode(Array(last[0..<6])).map(\.errorCode) == [1009])
    }

    @Test func singleFrameOverMaxMessageSizeFails() {
        var decoder = WebSocketFrameDecoder(role: .server, limits: WebSocketLimits(maxFrameSize: 1000, maxMessageSize: 10))
        #expect(decoder.decode(RawFrame.client(opcode: 0x2, [UInt8](repeating: 0, count: 11))).map(\.errorCode) == [1009])
    }

    @Test func controlFramesDoNotCountTowardsTheMessage() {
        var decoder = WebSocketFrameDecoder(role: .server, limits: WebSocketLimits(maxFrameSize: 125, maxMessageSize: 4))
        let stream = RawFrame.client(fin: false, opcode: 0x2, [1, 2])
            + RawFrame.client(opcode: 0x9, [UInt8](repeating: 9, count: 125))
            + RawFrame.client(opcode: 0x0, [3, 4])
        #expect(decoder.decode(stream) == [.ping([UInt8](repeating: 9, count: 125)), .binary([1, 2, 3, 4])])
    }

    @Test func maskedPayloadReadInPiecesKeepsTheKeyAligned() {
        let payload = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) }
        let frame = RawFrame.make(opcode: 0x2, mask: [0xDE, 0xAD, 0xBE, 0xEF], payload: payload)
        for pieceSize in [1, 3, 5, 7, 9, 64, 333] {
            var decoder = WebSocketFrameDecoder(role: .server)
            var events: [WebSocketEvent] = []
            var start = 0
            while start < frame.count {
                let end = min(start + pieceSize, frame.count)
                events += decoder.decode(Array(frame[start..<end]))
                start = end
            }
            #expect(events == [.binary(payload)], "pieces of \(pieceSize)")
        }
    }

    @Test func feedFromARawBuffer() {
        var decoder = WebSocketFrameDecoder(role: .server)
        let frame = RawFrame.clientText("raw")
        frame.withUnsafeBytes { decoder.feed($0) }
        #expect(decoder.next() == .text("raw"))
        #expect(decoder.next() == nil)
        #expect(!decoder.isFinished)
    }

    @Test func eventsKeepTheirOrderWhenFeedingAndTakingInterleave() {
        var decoder = WebSocketFrameDecoder(role: .server)
        decoder.feed(RawFrame.clientText("1") + RawFrame.clientText("2"))
        let first = decoder.next()
        decoder.feed(RawFrame.clientText("3"))
        let second = decoder.next()
        decoder.feed(RawFrame.clientText("4"))
        #expect([first, second] == [.text("1"), .text("2")])
        #expect(decoder.drain() == [.text("3"), .text("4")])
        decoder.feed(RawFrame.clientText("5"))
        #expect(decoder.drain() == [.text("5")])
    }
}
