import Testing
@testable import ParleyNet

/// One test per rule that ends a connection, with the close code each one calls for.
@Suite struct WebSocketFrameDecoderErrorTests {
    private func errors(_ stream: [UInt8], role: WebSocketRole = .server,
                        limits: WebSocketLimits = WebSocketLimits()) -> [UInt16?] {
        var decoder = WebSocketFrameDecoder(role: role, limits: limits)
        let events = decoder.decode(stream)
        #expect(decoder.isFinished)
        // Feeding more after the error changes nothing.
        #expect(decoder.decode(RawFrame.clientText("more")) == [])
        return events.map(\.errorCode)
    }

    @Test(arguments: [1, 2, 4] as [UInt8])
    func reservedBitSetIs1002(rsv: UInt8) {
        let frame = RawFrame.make(rsv: rsv, opcode: 0x1, mask: [1, 2, 3, 4], payload: Array("x".utf8))
        #expect(errors(frame) == [1002])
    }

    @Test(arguments: [0x3, 0x4, 0x5, 0x6, 0x7, 0xB, 0xC, 0xD, 0xE, 0xF] as [UInt8])
    func unknownOpcodeIs1002(opcode: UInt8) {
        #expect(errors(RawFrame.client(opcode: opcode, [])) == [1002])
    }

    @Test func unmaskedFrameFromClientIs1002() {
        #expect(errors(RawFrame.make(opcode: 0x1, payload: Array("hi".utf8)), role: .server) == [1002])
    }

    @Test func maskedFrameFromServerIs1002() {
        #expect(errors(RawFrame.clientText("hi"), role: .client) == [1002])
    }

    @Test func controlFrameLongerThan125Is1002() {
        #expect(errors(RawFrame.client(opcode: 0x9, [UInt8](repeating: 0, count: 126))) == [1002])
        // Also when a short payload is written in the 16-bit form.
        #expect(errors(RawFrame.client(opcode: 0xA, [1], lengthForm: .sixteen)) == [1002])
    }

    @Test func fragmentedControlFrameIs1002() {
        #expect(errors(RawFrame.client(fin: false, opcode: 0x9, [1])) == [1002])
    }

    @Test func continuationWithNoMessageStartedIs1002() {
        #expect(errors(RawFrame.client(opcode: 0x0, Array("orphan".utf8))) == [1002])
        // Also right after a message has been completed.
        #expect(errors(RawFrame.clientText("done") + RawFrame.client(opcode: 0x0, [])) == [nil, 1002])
    }

    @Test func newDataFrameWhileFragmentedMessageIsOpenIs1002() {
        let open = RawFrame.client(fin: false, opcode: 0x1, Array("a".utf8))
        #expect(errors(open + RawFrame.clientText("b")) == [1002])
        #expect(errors(open + RawFrame.client(opcode: 0x2, [1])) == [1002])
    }

    @Test func closePayloadOfOneByteIs1002() {
        #expect(errors(RawFrame.client(opcode: 0x8, [0x03])) == [1002])
    }

    @Test(arguments: [0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535] as [UInt16])
    func invalidCloseCodeIs1002(code: UInt16) {
        #expect(errors(RawFrame.client(opcode: 0x8, [UInt8(code >> 8), UInt8(code & 0xFF)])) == [1002])
    }

    @Test func sixtyFourBitLengthWithHighBitSetIs1002() {
        let frame: [UInt8] = [0x82, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 1, 1, 2, 3, 4]
        #expect(errors(frame) == [1002])
    }

    @Test func invalidUTF8InTextIs1007() {
        #expect(errors(RawFrame.client(opcode: 0x1, [0x61, 0xC0, 0xAF])) == [1007])
        #expect(errors(RawFrame.client(opcode: 0x1, [0xED, 0xA0, 0x80])) == [1007])  // surrogate
        #expect(errors(RawFrame.client(opcode: 0x1, [0xF4, 0x90, 0x80, 0x80])) == [1007])  // > U+10FFFF
    }

    @Test func incompleteUTF8AtEndOfMessageIs1007() {
        #expect(errors(RawFrame.client(opcode: 0x1, [0x61, 0xE2, 0x82])) == [1007])
        let split = RawFrame.client(fin: false, opcode: 0x1, [0xE2]) + RawFrame.client(opcode: 0x0, [0x82])
        #expect(errors(split) == [1007])
    }

    @Test func invalidUTF8IsReportedBeforeTheMessageEnds() {
        var decoder = WebSocketFrameDecoder(role: .server)
        // A first fragment that is still open, then a frame whose payload has only begun.
        #expect(decoder.decode(RawFrame.client(fin: false, opcode: 0x1, Array("fine".utf8))) == [])
        let bad = RawFrame.client(fin: false, opcode: 0x0, [0x61, 0xFF] + [UInt8](repeating: 0x61, count: 50))
        #expect(decoder.decode(Array(bad[0..<8])).map(\.errorCode) == [1007])
    }

    @Test func invalidUTF8InCloseReasonIs1007() {
        #expect(errors(RawFrame.client(opcode: 0x8, [0x03, 0xE8, 0x61, 0xFF])) == [1007])
    }

    /// Exactly at both limits decodes; one byte more is 1009.
    @Test func frameAndMessageExactlyAtTheirLimitsPass() {
        let limits = WebSocketLimits(maxFrameSize: 10, maxMessageSize: 15)
        var decoder = WebSocketFrameDecoder(role: .server, limits: limits)
        let frame = decoder.decode(RawFrame.client(opcode: 0x2, [UInt8](repeating: 1, count: 10)))
        #expect(frame.map(\.errorCode) == [nil])
        let message = decoder.decode(RawFrame.client(fin: false, opcode: 0x1, [UInt8](repeating: 0x61, count: 10))
            + RawFrame.client(opcode: 0x0, [UInt8](repeating: 0x61, count: 5)))
        #expect(message.map(\.errorCode) == [nil])
        #expect(!decoder.isFinished)
    }

    @Test func frameOverMaxFrameSizeIs1009() {
        let limits = WebSocketLimits(maxFrameSize: 10, maxMessageSize: 100)
        #expect(errors(RawFrame.client(opcode: 0x2, [UInt8](repeating: 0, count: 11)), limits: limits) == [1009])
    }

    @Test func messageOverMaxMessageSizeIs1009() {
        let limits = WebSocketLimits(maxFrameSize: 10, maxMessageSize: 15)
        let stream = RawFrame.client(fin: false, opcode: 0x1, [UInt8](repeating: 0x61, count: 10))
            + RawFrame.client(opcode: 0x0, [UInt8](repeating: 0x61, count: 6))
        #expect(errors(stream, limits: limits) == [1009])
    }

    @Test func hugeDeclaredLengthIs1009WithoutBuffering() {
        let frame: [UInt8] = [0x82, 0xFF, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 1, 2, 3, 4]
        #expect(errors(frame) == [1009])
    }

    @Test func eventsBeforeTheErrorAreDelivered() {
        let stream = RawFrame.clientText("one") + RawFrame.client(opcode: 0x9, [1])
            + RawFrame.client(opcode: 0x7, []) + RawFrame.clientText("never")
        var decoder = WebSocketFrameDecoder(role: .server)
        let events = decoder.decode(stream)
        #expect(events.count == 3)
        #expect(Array(events.prefix(2)) == [.text("one"), .ping([1])])
        #expect(events.last?.errorCode == 1002)
    }
}
