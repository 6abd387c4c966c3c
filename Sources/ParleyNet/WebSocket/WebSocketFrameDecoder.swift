/// Turns the bytes of a WebSocket connection into messages (RFC 6455 §5), enforcing the
/// masking rule of its role, the fragmentation rules, UTF-8 validity of text and the size
/// limits.
///
/// Use: `feed` whatever the socket delivered, then call `next()` until it returns nil.
/// Bytes are parsed as they are fed, so the caller's buffer need not outlive the call; only
/// a frame's header (inline, at most 14 bytes) and the payload of the message or control
/// frame in progress are kept, and buffers are released when their message is delivered,
/// so an idle connection's decoder holds no heap memory.
///
/// Not thread-safe: it is a value owned by one connection on one event loop.
public struct WebSocketFrameDecoder: Sendable {
    /// Which end this decoder is: a server demands masked frames, a client unmasked ones.
    public let role: WebSocketRole
    /// The frame and message size limits.
    public let limits: WebSocketLimits

    /// Where the parser is in the byte stream.
    private enum State: Sendable {
        /// Collecting the header of the next frame into `header`.
        case header
        /// Reading the payload of `frame`; `read` of its bytes have arrived.
        case payload(Frame, read: Int)
        /// A close frame arrived: nothing after it is parsed.
        case closed
        /// A protocol error was reported: nothing after it is parsed.
        case failed
    }

    /// The data message being reassembled, if any.
    private enum Assembly: Sendable {
        case idle
        case text
        case binary
    }

    /// A parsed frame header.
    private struct Frame: Sendable {
        var fin: Bool
        var opcode: WebSocketOpcode
        var maskingKey: WebSocketMaskingKey?
        var length: Int
    }

    // The one-byte fields sit together after the header: every WebSocket holds its decoder
    // for life, and two `Int` counts there took its connection into the next malloc chunk.
    private var state = State.header
    /// Header bytes seen so far; a header is 2 to 14 bytes, so it fits inline.
    private var header = SIMD16<UInt8>()
    /// How many of `header`'s bytes are in (at most 14).
    private var headerCount: UInt8 = 0
    /// How many header bytes the frame needs (2 to 14); known once its first two bytes are in.
    private var headerNeeded: UInt8 = 2
    private var assembly = Assembly.idle
    private var utf8 = UTF8Validator()
    /// The payload of the data message in progress, unmasked.
    private var message: [UInt8] = []
    /// The payload of the control frame in progress, unmasked.
    private var control: [UInt8] = []
    /// The oldest event not yet taken by `next()`. Most reads complete at most one message,
    /// so it is kept inline and the queue below is only allocated for bursts.
    private var firstEvent: WebSocketEvent?
    /// Later events, from `laterIndex` on; released once drained.
    private var laterEvents: [WebSocketEvent] = []
    private var laterIndex = 0

    /// A decoder for `role` that enforces `limits`.
    public init(role: WebSocketRole, limits: WebSocketLimits = WebSocketLimits()) {
        self.role = role
        self.limits = limits
    }

    /// True after a close frame or a protocol error: the decoder parses no more input.
    public var isFinished: Bool {
        switch state {
        case .closed, .failed: true
        case .header, .payload: false
        }
    }

    /// The next complete event, or nil when more bytes are needed.
    public mutating func next() -> WebSocketEvent? {
        if let event = firstEvent {
            firstEvent = nil
            return event
        }
        guard laterIndex < laterEvents.count else { return nil }
        let event = laterEvents[laterIndex]
        laterIndex += 1
        if laterIndex == laterEvents.count {
            laterEvents = []
            laterIndex = 0
        }
        return event
    }

    /// Parses `bytes`, the next bytes from the peer. Events become available from `next()`.
    public mutating func feed(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { feed($0) }
    }

    /// Parses `bytes`, the next bytes from the peer. Events become available from `next()`.
    /// The bytes are not referenced after the call returns.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        var index = 0
        while index < bytes.count { feedFrame(bytes, at: &index) }
    }

    /// Parses `bytes` from `index` until the frame in progress (or the next one) is complete
    /// or the bytes run out, and moves `index` past what it parsed; after a close frame or a
    /// protocol error it moves `index` to the end. Lets a caller alternate with
    /// `takeWholeMessage`, which only applies at a frame boundary.
    public mutating func feedFrame(_ bytes: UnsafeRawBufferPointer, at index: inout Int) {
        while index < bytes.count {
            switch state {
            case .closed, .failed:
                index = bytes.count
                return
            case .header:
                readHeader(bytes, at: &index)
            case .payload(let frame, let read):
                readPayload(bytes, at: &index, frame: frame, read: read)
            }
            if case .header = state, headerCount == 0 { return }
        }
    }

    /// The next message read in place, without copying: when the decoder is at a frame
    /// boundary with nothing buffered or pending, and `bytes` holds at `index` a whole
    /// unfragmented, unmasked text or binary frame within the limits (and, for text, valid
    /// UTF-8), returns its payload (a slice of `bytes`) and moves `index` past the frame.
    /// Otherwise returns nil and leaves `index` alone; `feedFrame` then parses (and reports
    /// any error) as usual.
    ///
    /// Unmasked data frames are what a client receives, so this is the client role's path:
    /// a load tool or SDK receiving many small messages pays no allocation per message. A
    /// server's frames are masked; it uses the overload for writable bytes.
    public mutating func takeWholeMessage(_ bytes: UnsafeRawBufferPointer,
                                          at index: inout Int) -> (isText: Bool, payload: UnsafeRawBufferPointer)? {
        guard role == .client, let frame = wholeDataFrame(bytes, at: index, masked: false) else { return nil }
        let payload = UnsafeRawBufferPointer(rebasing: bytes[frame.payload])
        if frame.isText {
            var validator = UTF8Validator()
            guard validator.validate(payload), validator.isComplete else { return nil }
        }
        index = frame.payload.upperBound
        return (frame.isText, payload)
    }

    /// `takeWholeMessage` for bytes the caller lets the decoder overwrite (a connection's
    /// read buffer, which is scratch): for the server role it also takes a whole *masked*
    /// frame (what every client sends), unmasking its payload where it lies, so a request
    /// reaches its handler with no copy and no allocation. A text frame that turns out not to
    /// be valid UTF-8 is masked again before nil is returned, so `feedFrame` sees the bytes
    /// as they came and reports the error.
    public mutating func takeWholeMessage(_ bytes: UnsafeMutableRawBufferPointer,
                                          at index: inout Int) -> (isText: Bool, payload: UnsafeRawBufferPointer)? {
        guard role == .server else { return takeWholeMessage(UnsafeRawBufferPointer(bytes), at: &index) }
        guard let frame = wholeDataFrame(UnsafeRawBufferPointer(bytes), at: index, masked: true),
              let key = frame.maskingKey else { return nil }
        let payload = UnsafeMutableRawBufferPointer(rebasing: bytes[frame.payload])
        key.apply(to: payload)
        if frame.isText {
            var validator = UTF8Validator()
            guard validator.validate(UnsafeRawBufferPointer(payload)), validator.isComplete else {
                key.apply(to: payload)
                return nil
            }
        }
        index = frame.payload.upperBound
        return (frame.isText, UnsafeRawBufferPointer(payload))
    }

    /// Where the whole, final, unfragmented text or binary frame at `index` has its payload,
    /// if the decoder is at a frame boundary with nothing pending, the frame has no reserved
    /// bits, its mask bit is `masked`, it is within the limits and it is all in `bytes`.
    private func wholeDataFrame(_ bytes: UnsafeRawBufferPointer, at index: Int,
                                masked: Bool) -> (isText: Bool, maskingKey: WebSocketMaskingKey?, payload: Range<Int>)? {
        guard case .header = state, headerCount == 0, assembly == .idle,
              firstEvent == nil, laterEvents.isEmpty, bytes.count - index >= 2 else { return nil }
        let first = bytes[index], second = bytes[index + 1]
        // FIN, no reserved bits, text or binary; the mask bit as the role demands.
        guard first == 0x81 || first == 0x82, (second & 0x80 != 0) == masked else { return nil }
        var position = index + 2
        var length = UInt64(second & 0x7F)
        if length >= 126 {
            let lengthBytes = length == 127 ? 8 : 2
            guard bytes.count - position >= lengthBytes else { return nil }
            length = 0
            for _ in 0..<lengthBytes {
                length = length << 8 | UInt64(bytes[position])
                position += 1
            }
        }
        var maskingKey: WebSocketMaskingKey?
        if masked {
            guard bytes.count - position >= 4 else { return nil }
            maskingKey = WebSocketMaskingKey(bytes[position], bytes[position + 1], bytes[position + 2], bytes[position + 3])
            position += 4
        }
        guard length <= UInt64(limits.maxFrameSize), length <= UInt64(limits.maxMessageSize),
              UInt64(bytes.count - position) >= length else { return nil }
        return (first == 0x81, maskingKey, position..<(position + Int(length)))
    }

    // MARK: - Header

    private mutating func readHeader(_ bytes: UnsafeRawBufferPointer, at index: inout Int) {
        while headerCount < headerNeeded && index < bytes.count {
            header[Int(headerCount)] = bytes[index]
            headerCount += 1
            index += 1
            if headerCount == 2 {
                // Refuse a bad frame on its first two bytes, before waiting for the rest.
                guard let needed = checkFirstTwoBytes() else { return }
                headerNeeded = UInt8(needed)
            }
        }
        guard headerCount == headerNeeded else { return }
        headerCount = 0
        headerNeeded = 2
        guard let frame = completeHeader() else { return }
        if frame.length == 0 {
            finishFrame(frame)
        } else {
            state = .payload(frame, read: 0)
        }
    }

    /// Checks the flags, opcode, mask bit and short length; returns the full header size.
    private mutating func checkFirstTwoBytes() -> Int? {
        let first = header[0], second = header[1]
        let fin = first & 0x80 != 0
        let masked = second & 0x80 != 0
        let shortLength = second & 0x7F
        guard first & 0x70 == 0 else {
            fail(.protocolError, "reserved bits set without a negotiated extension")
            return nil
        }
        guard let opcode = WebSocketOpcode(rawValue: first & 0x0F) else {
            fail(.protocolError, "unknown opcode \(first & 0x0F)")
            return nil
        }
        switch role {
        case .server where !masked:
            fail(.protocolError, "unmasked frame from a client")
            return nil
        case .client where masked:
            fail(.protocolError, "masked frame from a server")
            return nil
        default:
            break
        }
        if opcode.isControl {
            guard fin else {
                fail(.protocolError, "fragmented control frame")
                return nil
            }
            // The extended length forms (126, 127) can only mean more than 125 bytes or a
            // non-minimal encoding, both forbidden here, so refuse before reading them.
            guard shortLength <= 125 else {
                fail(.protocolError, "control frame longer than 125 bytes")
                return nil
            }
        } else {
            switch (opcode, assembly) {
            case (.continuation, .idle):
                fail(.protocolError, "continuation frame with no message started")
                return nil
            case (.text, .text), (.text, .binary), (.binary, .text), (.binary, .binary):
                fail(.protocolError, "new data frame while a fragmented message is open")
                return nil
            default:
                break
            }
        }
        let lengthBytes = shortLength == 127 ? 8 : shortLength == 126 ? 2 : 0
        return 2 + lengthBytes + (masked ? 4 : 0)
    }

    /// Decodes the whole header (already checked by `checkFirstTwoBytes`) and applies the
    /// size limits before any payload is buffered.
    private mutating func completeHeader() -> Frame? {
        let first = header[0], second = header[1]
        guard let opcode = WebSocketOpcode(rawValue: first & 0x0F) else {
            fail(.protocolError, "unknown opcode \(first & 0x0F)")
            return nil
        }
        var position = 2
        var length = UInt64(second & 0x7F)
        if length >= 126 {
            let lengthBytes = length == 127 ? 8 : 2
            length = 0
            for _ in 0..<lengthBytes {
                length = length << 8 | UInt64(header[position])
                position += 1
            }
            guard length >> 63 == 0 else {
                fail(.protocolError, "64-bit payload length with the most significant bit set")
                return nil
            }
        }
        guard length <= UInt64(limits.maxFrameSize) else {
            fail(.messageTooBig, "frame of \(length) bytes exceeds the limit of \(limits.maxFrameSize)")
            return nil
        }
        let payloadLength = Int(length)
        var maskingKey: WebSocketMaskingKey?
        if second & 0x80 != 0 {
            maskingKey = WebSocketMaskingKey(header[position], header[position + 1], header[position + 2], header[position + 3])
        }
        if !opcode.isControl {
            guard payloadLength <= limits.maxMessageSize - message.count else {
                fail(.messageTooBig, "message exceeds the limit of \(limits.maxMessageSize) bytes")
                return nil
            }
            switch opcode {
            case .text: assembly = .text
            case .binary: assembly = .binary
            default: break
            }
        }
        return Frame(fin: first & 0x80 != 0, opcode: opcode, maskingKey: maskingKey, length: payloadLength)
    }

    // MARK: - Payload

    private mutating func readPayload(_ bytes: UnsafeRawBufferPointer, at index: inout Int, frame: Frame, read: Int) {
        let take = min(frame.length - read, bytes.count - index)
        let piece = UnsafeRawBufferPointer(rebasing: bytes[index..<(index + take)])
        index += take
        if frame.opcode.isControl {
            Self.append(piece, to: &control, maskingKey: frame.maskingKey, offset: read)
        } else {
            let start = message.count
            Self.append(piece, to: &message, maskingKey: frame.maskingKey, offset: read)
            if assembly == .text {
                // Check text as it arrives so a bad byte ends the connection at once.
                var validator = utf8
                let valid = message.withUnsafeBytes { validator.validate(UnsafeRawBufferPointer(rebasing: $0[start...])) }
                utf8 = validator
                guard valid else {
                    fail(.invalidPayloadData, "text message is not valid UTF-8")
                    return
                }
            }
        }
        if read + take == frame.length {
            finishFrame(frame)
        } else {
            state = .payload(frame, read: read + take)
        }
    }

    private static func append(_ piece: UnsafeRawBufferPointer, to buffer: inout [UInt8],
                               maskingKey: WebSocketMaskingKey?, offset: Int) {
        let start = buffer.count
        buffer.append(contentsOf: piece)
        if let maskingKey {
            buffer.withUnsafeMutableBytes { maskingKey.apply(to: UnsafeMutableRawBufferPointer(rebasing: $0[start...]), offset: offset) }
        }
    }

    private mutating func finishFrame(_ frame: Frame) {
        state = .header
        switch frame.opcode {
        case .ping:
            emit(.ping(control))
            control = []
        case .pong:
            emit(.pong(control))
            control = []
        case .close:
            finishClose()
        case .text, .binary, .continuation:
            if frame.fin { finishMessage() }
        }
    }

    private mutating func finishMessage() {
        switch assembly {
        case .idle:
            return
        case .text:
            guard utf8.finish() else {
                fail(.invalidPayloadData, "text message ends inside a UTF-8 sequence")
                return
            }
            emit(.text(String(decoding: message, as: UTF8.self)))
        case .binary:
            emit(.binary(message))
        }
        message = []
        assembly = .idle
    }

    private mutating func finishClose() {
        let payload = control
        control = []
        guard !payload.isEmpty else {
            emit(.close(code: nil, reason: ""))
            state = .closed
            releaseBuffers()
            return
        }
        guard payload.count >= 2 else {
            fail(.protocolError, "close frame with a 1-byte payload")
            return
        }
        let code = WebSocketCloseCode(UInt16(payload[0]) << 8 | UInt16(payload[1]))
        guard code.isValidOnWire else {
            fail(.protocolError, "close code \(code.rawValue) is not valid on the wire")
            return
        }
        let reason = payload[2...]
        guard UTF8Validator.isValid(reason) else {
            fail(.invalidPayloadData, "close reason is not valid UTF-8")
            return
        }
        emit(.close(code: code, reason: String(decoding: reason, as: UTF8.self)))
        state = .closed
        releaseBuffers()
    }

    private mutating func emit(_ event: WebSocketEvent) {
        if firstEvent == nil && laterEvents.isEmpty {
            firstEvent = event
        } else {
            laterEvents.append(event)
        }
    }

    // MARK: - Failure

    /// Reports a protocol error and stops parsing for good.
    private mutating func fail(_ code: WebSocketCloseCode, _ reason: String) {
        emit(.protocolError(code, reason: reason))
        state = .failed
        releaseBuffers()
    }

    private mutating func releaseBuffers() {
        message = []
        control = []
        assembly = .idle
        utf8.reset()
    }
}
