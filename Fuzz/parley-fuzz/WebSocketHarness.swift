import ParleyNet

/// `websocket-server` and `websocket-client`: `WebSocketFrameDecoder` in one role on
/// arbitrary bytes.
///
/// Invariants: the events equal those of `WebSocketReference` (so text is exactly the
/// valid UTF-8 that was sent, fragments reassemble in order, every rule and limit is
/// enforced, and the first error carries the right close code); fed whole, in random
/// pieces and byte by byte, the decoder gives the same events; at most one close or error,
/// and it is the last event, after which `isFinished` holds; messages re-encoded by
/// `WebSocketFrameEncoder` as the peer would send them decode to the same events.
struct WebSocketHarness {
    /// Small limits so that short inputs reach them; the frame limit is below the control
    /// frame maximum (125) so that both rules get exercised.
    static let limits = WebSocketLimits(maxFrameSize: 96, maxMessageSize: 320)

    let role: WebSocketRole

    func run(_ bytes: [UInt8]) throws(InvariantFailure) {
        // The server's own limits: only "does not crash" here.
        var defaultLimits = WebSocketFrameDecoder(role: role)
        defaultLimits.feed(bytes)
        while defaultLimits.next() != nil {}

        let (whole, finished) = decode([bytes[...]])
        let expected = WebSocketReference(role: role, limits: Self.limits).events(bytes)
        try InvariantFailure.expect(whole == expected, "the decoder gave \(whole), the reference \(expected)")
        try checkEnding(whole, finished: finished)
        for pieces in InputSplitter.splits(bytes) {
            let (split, _) = decode(pieces)
            try InvariantFailure.expect(split == whole, "fed in \(pieces.count) pieces: \(split), fed whole: \(whole)")
        }
        try checkReencoding(whole)
    }

    /// The events from feeding `pieces` in order, draining after each feed as a
    /// connection does, and whether the decoder finished.
    func decode(_ pieces: [ArraySlice<UInt8>]) -> ([WebSocketReference.Shape], Bool) {
        var decoder = WebSocketFrameDecoder(role: role, limits: Self.limits)
        var events: [WebSocketReference.Shape] = []
        for piece in pieces {
            piece.withUnsafeBytes { decoder.feed($0) }
            while let event = decoder.next() { events.append(WebSocketReference.Shape(event)) }
        }
        return (events, decoder.isFinished)
    }

    func checkEnding(_ events: [WebSocketReference.Shape], finished: Bool) throws(InvariantFailure) {
        let endings = events.indices.filter {
            switch events[$0] {
            case .close, .error: true
            default: false
            }
        }
        try InvariantFailure.expect(endings.count <= 1 && endings.allSatisfy { $0 == events.count - 1 },
                                    "a close or error that is not the single last event: \(events)")
        try InvariantFailure.expect(finished == !endings.isEmpty, "isFinished is \(finished) after \(events)")
    }

    /// Sends every event but an error back through the encoder, as the peer's side would
    /// frame it (messages cut to the frame limit), and decodes the result again.
    func checkReencoding(_ events: [WebSocketReference.Shape]) throws(InvariantFailure) {
        // The peer of a server is a client, which masks.
        let key: WebSocketMaskingKey? = role == .server ? WebSocketMaskingKey(0x12, 0x34, 0x56, 0x78) : nil
        var wire: [UInt8] = []
        var expected: [WebSocketReference.Shape] = []
        for event in events {
            switch event {
            case .text(let bytes), .binary(let bytes):
                var opcode: WebSocketOpcode = if case .text = event { .text } else { .binary }
                var start = 0
                repeat {
                    let end = min(bytes.count, start + Self.limits.maxFrameSize)
                    wire += WebSocketFrameEncoder.encodeToArray(fin: end == bytes.count, opcode: opcode,
                                                                payload: bytes[start..<end], maskingKey: key)
                    opcode = .continuation
                    start = end
                } while start < bytes.count
            case .ping(let bytes):
                wire += WebSocketFrameEncoder.encodeToArray(opcode: .ping, payload: bytes, maskingKey: key)
            case .pong(let bytes):
                wire += WebSocketFrameEncoder.encodeToArray(opcode: .pong, payload: bytes, maskingKey: key)
            case .close(let code, let reason):
                let payload = WebSocketFrameEncoder.closePayload(code: code.map(WebSocketCloseCode.init(rawValue:)),
                                                                 reason: String(decoding: reason, as: UTF8.self))
                wire += WebSocketFrameEncoder.encodeToArray(opcode: .close, payload: payload, maskingKey: key)
            case .error:
                continue
            }
            expected.append(event)
        }
        let (again, _) = decode([wire[...]])
        try InvariantFailure.expect(again == expected, "re-encoded, \(expected) came back as \(again)")
    }
}
