import Testing
@testable import ParleyNet

/// `takeWholeMessage` (payloads read in place) alternating with `feedFrame`, the way
/// `WebSocketConnection` consumes a read: whatever the split of the stream into reads, the
/// messages, their order and every error must be those of the plain `feed`.
@Suite struct WebSocketFrameDecoderInPlaceTests {
    /// A frame as a server sends it: unmasked.
    private static func server(fin: Bool = true, opcode: UInt8, _ payload: [UInt8],
                               lengthForm: RawFrame.LengthForm = .minimal) -> [UInt8] {
        RawFrame.make(fin: fin, opcode: opcode, payload: payload, lengthForm: lengthForm)
    }

    /// Decodes `stream` read by read (cut at `cuts`) as `WebSocketConnection.consume` does;
    /// also returns how many messages came in place.
    /// With `writable`, the reads are handed over as overwritable bytes (the overload a
    /// connection's read buffer uses), as `WebSocketConnection` does.
    private static func consume(_ stream: [UInt8], cuts: [Int], role: WebSocketRole = .client,
                                limits: WebSocketLimits = WebSocketLimits(),
                                writable: Bool = false) -> (events: [WebSocketEvent], inPlace: Int) {
        var decoder = WebSocketFrameDecoder(role: role, limits: limits)
        var events: [WebSocketEvent] = []
        var inPlace = 0
        var start = 0
        for end in cuts + [stream.count] where end >= start {
            var read = Array(stream[start..<end])
            read.withUnsafeMutableBytes { writableBytes in
                let bytes = UnsafeRawBufferPointer(writableBytes)
                var index = 0
                while index < bytes.count {
                    let taken = writable ? decoder.takeWholeMessage(writableBytes, at: &index)
                                         : decoder.takeWholeMessage(bytes, at: &index)
                    if let message = taken {
                        inPlace += 1
                        events.append(message.isText ? .text(String(decoding: message.payload, as: UTF8.self))
                                                     : .binary(Array(message.payload)))
                        continue
                    }
                    decoder.feedFrame(bytes, at: &index)
                    while let event = decoder.next() { events.append(event) }
                }
            }
            start = end
        }
        return (events, inPlace)
    }

    private static let mixedStream: [UInt8] =
        server(opcode: 0x1, Array("{\"event\":\"message.new\"}".utf8))
        + server(opcode: 0x2, [1, 2, 3])
        + server(opcode: 0x9, [7])
        + server(fin: false, opcode: 0x1, Array("frag".utf8))
        + server(opcode: 0xA, [])
        + server(opcode: 0x0, Array("mented".utf8))
        + server(opcode: 0x1, Array("héllo wörld, longer than eight bytes".utf8), lengthForm: .sixteen)
        + server(opcode: 0x1, [UInt8](repeating: UInt8(ascii: "a"), count: 300))
        + server(opcode: 0x1, [])
        + server(opcode: 0x2, [9, 8], lengthForm: .sixtyFour)
        + server(opcode: 0x8, [0x03, 0xE8] + Array("bye".utf8))

    @Test func everySplitOfAStreamGivesTheEventsOfPlainFeeding() {
        var plain = WebSocketFrameDecoder(role: .client)
        let expected = plain.decode(Self.mixedStream)
        #expect(expected.count == 10)
        let whole = Self.consume(Self.mixedStream, cuts: [])
        #expect(whole.events == expected)
        // Six whole data frames: the text, the binary, the two long texts, the empty one, the 64-bit one.
        #expect(whole.inPlace == 6)
        for cut in 0...Self.mixedStream.count {
            #expect(Self.consume(Self.mixedStream, cuts: [cut]).events == expected, "cut at \(cut)")
        }
        let byteAtATime = Self.consume(Self.mixedStream, cuts: Array(0...Self.mixedStream.count))
        #expect(byteAtATime.events == expected)
        // A frame needs at least its two header bytes in one read.
        #expect(byteAtATime.inPlace == 0)
    }

    @Test func thePayloadIsASliceOfTheReadNotACopy() {
        let frame = Self.server(opcode: 0x1, Array("in place".utf8))
        var decoder = WebSocketFrameDecoder(role: .client)
        frame.withUnsafeBytes { bytes in
            var index = 0
            let message = decoder.takeWholeMessage(bytes, at: &index)
            #expect(message?.isText == true)
            #expect(message?.payload.baseAddress == bytes.baseAddress! + 2)
            #expect(message?.payload.count == 8)
            #expect(index == bytes.count)
        }
    }

    @Test func declinesWhatItCannotTakeWholeAndLeavesTheIndex() {
        func declines(_ bytes: [UInt8], role: WebSocketRole = .client, limits: WebSocketLimits = WebSocketLimits()) -> Bool {
            var decoder = WebSocketFrameDecoder(role: role, limits: limits)
            return bytes.withUnsafeBytes { raw in
                var index = 0
                return decoder.takeWholeMessage(raw, at: &index) == nil && index == 0
            }
        }
        #expect(declines(RawFrame.clientText("masked")))
        #expect(declines(Self.server(opcode: 0x1, Array("x".utf8)), role: .server))
        #expect(declines(Self.server(fin: false, opcode: 0x1, Array("first".utf8))))
        #expect(declines(Self.server(opcode: 0x9, [1])))
        #expect(declines(Array(Self.server(opcode: 0x1, Array("cut short".utf8)).dropLast())))
        #expect(declines(Array(Self.server(opcode: 0x1, [UInt8](repeating: 0x61, count: 300)).prefix(3))))
        #expect(declines(Self.server(opcode: 0x1, [0xC3])))
        #expect(declines(Self.server(opcode: 0x1, [0x61, 0xFF, 0x61])))
        #expect(declines(RawFrame.make(rsv: 4, opcode: 0x1, payload: [0x61])))
        #expect(declines(Self.server(opcode: 0x2, [UInt8](repeating: 0, count: 11)),
                         limits: WebSocketLimits(maxFrameSize: 10, maxMessageSize: 100)))
        #expect(declines(Self.server(opcode: 0x2, [UInt8](repeating: 0, count: 11)),
                         limits: WebSocketLimits(maxFrameSize: 100, maxMessageSize: 10)))
    }

    @Test func errorsAreStillReportedByTheFramePath() {
        let badText = Self.server(opcode: 0x1, Array("ok".utf8)) + Self.server(opcode: 0x1, [0x61, 0xFF])
            + Self.server(opcode: 0x1, Array("never seen".utf8))
        let utf8 = Self.consume(badText, cuts: [])
        #expect(utf8.events.count == 2)
        #expect(utf8.events.first == .text("ok"))
        #expect(utf8.events.last?.errorCode == WebSocketCloseCode.invalidPayloadData.rawValue)

        let tooBig = Self.server(opcode: 0x2, [UInt8](repeating: 1, count: 20)) + Self.server(opcode: 0x2, [2])
        let big = Self.consume(tooBig, cuts: [], limits: WebSocketLimits(maxFrameSize: 10, maxMessageSize: 100))
        #expect(big.events.map(\.errorCode) == [WebSocketCloseCode.messageTooBig.rawValue])

        let masked = Self.server(opcode: 0x1, Array("a".utf8)) + RawFrame.clientText("b")
        let mask = Self.consume(masked, cuts: [])
        #expect(mask.events.count == 2)
        #expect(mask.events.last?.errorCode == WebSocketCloseCode.protocolError.rawValue)
    }

    @Test func aServerDecoderNeverTakesInPlaceButDecodesTheSame() {
        let stream = RawFrame.clientText("one") + RawFrame.client(opcode: 0x2, [1]) + RawFrame.clientText("two")
        var plain = WebSocketFrameDecoder(role: .server)
        let expected = plain.decode(stream)
        for cut in 0...stream.count {
            let result = Self.consume(stream, cuts: [cut], role: .server)
            #expect(result.events == expected)
            #expect(result.inPlace == 0)
        }
    }

    private static let clientStream: [UInt8] =
        RawFrame.clientText("{\"op\":\"message.send\"}")
        + RawFrame.client(opcode: 0x2, [1, 2, 3])
        + RawFrame.client(opcode: 0x9, [7])
        + RawFrame.client(fin: false, opcode: 0x1, Array("frag".utf8))
        + RawFrame.client(opcode: 0x0, Array("mented".utf8))
        + RawFrame.client(opcode: 0x1, Array("héllo wörld, longer than eight bytes".utf8), lengthForm: .sixteen)
        + RawFrame.client(opcode: 0x1, [UInt8](repeating: UInt8(ascii: "a"), count: 300))
        + RawFrame.client(opcode: 0x1, [])
        + RawFrame.client(opcode: 0x2, [9, 8], lengthForm: .sixtyFour)
        + RawFrame.client(opcode: 0x8, [0x03, 0xE8] + Array("bye".utf8))

    @Test func aServerGivenWritableReadsTakesMaskedFramesInPlaceWithTheEventsOfPlainFeeding() {
        var plain = WebSocketFrameDecoder(role: .server)
        let expected = plain.decode(Self.clientStream)
        #expect(expected.count == 9)
        let whole = Self.consume(Self.clientStream, cuts: [], role: .server, writable: true)
        #expect(whole.events == expected)
        // The text, the binary, the long text, the 300 bytes, the empty one, the 64-bit one.
        #expect(whole.inPlace == 6)
        for cut in 0...Self.clientStream.count {
            #expect(Self.consume(Self.clientStream, cuts: [cut], role: .server, writable: true).events == expected,
                    "cut at \(cut)")
        }
        // A client's decoder never overwrites: given writable bytes it still takes only unmasked frames.
        #expect(Self.consume(Self.mixedStream, cuts: [], writable: true).inPlace == 6)
        #expect(Self.consume(Self.clientStream, cuts: [], writable: true).inPlace == 0)
    }

    @Test func aMaskedPayloadIsUnmaskedWhereItLies() {
        var frame = RawFrame.clientText("in place, unmasked")
        var decoder = WebSocketFrameDecoder(role: .server)
        frame.withUnsafeMutableBytes { bytes in
            var index = 0
            let message = decoder.takeWholeMessage(bytes, at: &index)
            #expect(message?.isText == true)
            #expect(message?.payload.baseAddress == UnsafeRawPointer(bytes.baseAddress! + 6))
            #expect(message.map { String(decoding: $0.payload, as: UTF8.self) } == "in place, unmasked")
            #expect(index == bytes.count)
        }
    }

    @Test func aMaskedFrameDeclinedAfterUnmaskingIsPutBackAsItCame() {
        let invalid = RawFrame.client(opcode: 0x1, [0x61, 0xFF, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67])
        var read = invalid
        var decoder = WebSocketFrameDecoder(role: .server)
        read.withUnsafeMutableBytes { bytes in
            var index = 0
            #expect(decoder.takeWholeMessage(bytes, at: &index) == nil)
            #expect(index == 0)
        }
        #expect(read == invalid)
        let stream = RawFrame.clientText("ok") + invalid + RawFrame.clientText("never seen")
        let result = Self.consume(stream, cuts: [], role: .server, writable: true)
        #expect(result.events.count == 2)
        #expect(result.events.first == .text("ok"))
        #expect(result.events.last?.errorCode == WebSocketCloseCode.invalidPayloadData.rawValue)
        // Unmasked frames from a client are still refused by the frame path.
        let unmasked = Self.consume(Self.server(opcode: 0x1, Array("x".utf8)), cuts: [], role: .server, writable: true)
        #expect(unmasked.inPlace == 0)
        #expect(unmasked.events.map(\.errorCode) == [WebSocketCloseCode.protocolError.rawValue])
    }
}
