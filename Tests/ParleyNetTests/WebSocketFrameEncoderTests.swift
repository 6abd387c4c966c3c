import Testing
@testable import ParleyNet

@Suite struct WebSocketFrameEncoderTests {
    private let rfcKey = WebSocketMaskingKey(0x37, 0xFA, 0x21, 0x3D)

    private func encode(_ opcode: WebSocketOpcode, _ payload: [UInt8], fin: Bool = true,
                        key: WebSocketMaskingKey? = nil) -> [UInt8] {
        payload.withUnsafeBytes {
            WebSocketFrameEncoder.encode(fin: fin, opcode: opcode, payload: $0, maskingKey: key).bytes
        }
    }

    // RFC 6455 §5.7.
    @Test func rfcExamples() {
        let hello = Array("Hello".utf8)
        #expect(encode(.text, hello) == [0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F])
        #expect(encode(.text, hello, key: rfcKey) == [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58])
        #expect(encode(.text, Array("Hel".utf8), fin: false) == [0x01, 0x03, 0x48, 0x65, 0x6C])
        #expect(encode(.continuation, Array("lo".utf8)) == [0x80, 0x02, 0x6C, 0x6F])
        #expect(encode(.ping, hello) == [0x89, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F])
        #expect(encode(.pong, hello, key: rfcKey) == [0x8A, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58])
    }

    @Test(arguments: [(0, 2), (125, 2), (126, 4), (65535, 4), (65536, 10), (70000, 10)])
    func lengthFormsAndExactSize(payloadCount: Int, headerCount: Int) {
        let payload = [UInt8](repeating: 0x42, count: payloadCount)
        let frame = encode(.binary, payload)
        #expect(frame.count == payloadCount + headerCount)
        #expect(frame.count == WebSocketFrameEncoder.frameSize(payloadCount: payloadCount, masked: false))
        #expect(WebSocketFrameEncoder.frameSize(payloadCount: payloadCount, masked: true) == frame.count + 4)
        switch headerCount {
        case 2: #expect(frame[1] == UInt8(payloadCount))
        case 4: #expect(Array(frame[1...3]) == [126, UInt8(payloadCount >> 8), UInt8(payloadCount & 0xFF)])
        default:
            #expect(frame[1] == 127)
            #expect(Array(frame[2...9]) == [0, 0, 0, 0, 0, UInt8(payloadCount >> 16), UInt8((payloadCount >> 8) & 0xFF), UInt8(payloadCount & 0xFF)])
        }
        #expect(frame.suffix(payloadCount) == payload[...])
    }

    @Test(arguments: [0, 1, 3, 4, 5, 7, 8, 9, 17, 125, 126, 127, 4099, 65535, 65536, 100_000])
    func maskedClientFramesRoundTripThroughAServerDecoder(count: Int) {
        let payload = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        let limits = WebSocketLimits(maxFrameSize: 1 << 20)
        let client = WebSocketFrameEncoder(role: .client)
        let chunk = client.binary(payload)
        #expect(chunk.bytes[1] & 0x80 != 0)
        #expect(chunk.count == WebSocketFrameEncoder.frameSize(payloadCount: count, masked: true))
        var server = WebSocketFrameDecoder(role: .server, limits: limits)
        #expect(server.decode(chunk.bytes) == [.binary(payload)])
        // And the other direction: unmasked server frames for a client decoder.
        let serverChunk = WebSocketFrameEncoder(role: .server).binary(payload)
        #expect(serverChunk.bytes[1] & 0x80 == 0)
        var clientDecoder = WebSocketFrameDecoder(role: .client, limits: limits)
        #expect(clientDecoder.decode(serverChunk.bytes) == [.binary(payload)])
    }

    /// A frame whose payload is written in place is the frame made from the same payload:
    /// byte for byte from a server, and read back alike from a client (whose key is random).
    @Test(arguments: [0, 1, 125, 126, 65535, 65536])
    func framesWrittenInPlaceAreTheFramesMadeFromAPayload(count: Int) {
        let payload = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 1) }
        let write = { (out: UnsafeMutableBufferPointer<UInt8>) in
            #expect(out.count == count)
            _ = out.initialize(from: payload)
        }
        let server = WebSocketFrameEncoder(role: .server)
        #expect(server.frame(opcode: .text, payloadCount: count, writePayload: write).bytes
            == server.frame(opcode: .text, payload: payload).bytes)
        let chunk = WebSocketFrameEncoder(role: .client).frame(opcode: .binary, payloadCount: count, writePayload: write)
        #expect(chunk.bytes[1] & 0x80 != 0)
        var decoder = WebSocketFrameDecoder(role: .server, limits: WebSocketLimits(maxFrameSize: 1 << 20))
        #expect(decoder.decode(chunk.bytes) == [.binary(payload)])
    }

    @Test func explicitMaskRoundTrip() {
        let text = "masked ünïcode text, long enough for several words"
        let frame = encode(.text, Array(text.utf8), key: WebSocketMaskingKey(rawValue: 0xA1B2_C3D4))
        #expect(Array(frame[2...5]) == [0xA1, 0xB2, 0xC3, 0xD4])
        var decoder = WebSocketFrameDecoder(role: .server)
        #expect(decoder.decode(frame) == [.text(text)])
    }

    @Test func roleHelpers() {
        let server = WebSocketFrameEncoder(role: .server)
        #expect(server.text("hi").bytes == [0x81, 0x02, 0x68, 0x69])
        #expect(server.binary([1, 2]).bytes == [0x82, 0x02, 1, 2])
        #expect(server.ping([9]).bytes == [0x89, 0x01, 9])
        #expect(server.pong().bytes == [0x8A, 0x00])
        #expect(server.close(code: .normalClosure, reason: "ok").bytes == [0x88, 0x04, 0x03, 0xE8, 0x6F, 0x6B])
        #expect(server.close(code: nil).bytes == [0x88, 0x00])
        #expect(server.frame(fin: false, opcode: .text, payload: [0x61]).bytes == [0x01, 0x01, 0x61])

        let client = WebSocketFrameEncoder(role: .client)
        var decoder = WebSocketFrameDecoder(role: .server)
        let stream = client.frame(fin: false, opcode: .text, payload: Array("frag".utf8)).bytes
            + client.ping([1, 2]).bytes
            + client.frame(opcode: .continuation, payload: Array("ment".utf8)).bytes
            + client.text("😀").bytes
            + client.close(code: .goingAway, reason: "bye").bytes
        #expect(decoder.decode(stream) == [
            .ping([1, 2]), .text("fragment"), .text("😀"), .close(code: .goingAway, reason: "bye"),
        ])
    }

    @Test func longCloseReasonIsCutOnACharacterBoundary() {
        let reason = String(repeating: "a", count: 122) + "€€"  // 122 + 6 bytes
        let payload = WebSocketFrameEncoder.closePayload(code: .policyViolation, reason: reason)
        #expect(payload.count == 124)  // 2 + 122: the first € does not fit in the 123 left
        #expect(UTF8Validator.isValid(payload[2...]))
        let exact = WebSocketFrameEncoder.closePayload(code: .policyViolation, reason: String(repeating: "é", count: 70))
        #expect(exact.count == 124)
        let fits = WebSocketFrameEncoder.closePayload(code: .policyViolation, reason: String(repeating: "b", count: 123))
        #expect(fits.count == 125)
        var decoder = WebSocketFrameDecoder(role: .client)
        let events = decoder.decode(WebSocketFrameEncoder(role: .server).close(code: .policyViolation, reason: reason).bytes)
        #expect(events == [.close(code: .policyViolation, reason: String(repeating: "a", count: 122))])
    }

    @Test func arrayAndChunkEncodingsAgree() {
        let payload = (0..<300).map { UInt8(truncatingIfNeeded: $0) }
        let key = WebSocketMaskingKey(1, 2, 3, 4)
        let array = WebSocketFrameEncoder.encodeToArray(opcode: .binary, payload: payload, maskingKey: key)
        #expect(array == encode(.binary, payload, key: key))
        #expect(WebSocketFrameEncoder.encodeToArray(fin: false, opcode: .text, payload: [UInt8]()) == [0x01, 0x00])
    }
}
