/// Builds WebSocket frames (RFC 6455 §5.2).
///
/// Each frame is one allocation of exactly its wire size, with the payload copied once and
/// masked in place, so a message broadcast to many connections is encoded once and the same
/// `ByteChunk` is queued on each of them. An encoder for the client role masks every frame
/// with a fresh random key; one for the server role masks none.
public struct WebSocketFrameEncoder: Sendable {
    /// The largest payload a control frame (close, ping, pong) may carry.
    public static let maxControlPayload = 125

    /// Which end sends the frames; decides whether they are masked.
    public let role: WebSocketRole

    /// An encoder for frames sent by `role`.
    public init(role: WebSocketRole) {
        self.role = role
    }

    // MARK: - Role-aware helpers

    /// A frame carrying a whole text message.
    public func text(_ text: String) -> ByteChunk {
        var text = text
        return text.withUTF8 { frame(opcode: .text, payload: UnsafeRawBufferPointer($0)) }
    }

    /// A frame carrying a whole binary message.
    public func binary(_ bytes: some Collection<UInt8>) -> ByteChunk {
        frame(opcode: .binary, payload: bytes)
    }

    /// A ping; `payload` is at most 125 bytes.
    public func ping(_ payload: [UInt8] = []) -> ByteChunk {
        frame(opcode: .ping, payload: payload)
    }

    /// A pong; answer a ping with its own payload.
    public func pong(_ payload: [UInt8] = []) -> ByteChunk {
        frame(opcode: .pong, payload: payload)
    }

    /// A close frame; see `closePayload(code:reason:)`.
    public func close(code: WebSocketCloseCode?, reason: String = "") -> ByteChunk {
        frame(opcode: .close, payload: Self.closePayload(code: code, reason: reason))
    }

    /// Any frame, e.g. one fragment of a message sent in pieces (`fin` false, then
    /// `.continuation` frames). Inlinable so that a caller in another module gets a copy
    /// specialized for its collection: called generically, each frame went through the
    /// collection's witness table and `withContiguousStorageIfAvailable`'s thunks
    /// (≈ 400 instructions a frame on the 1:1 path; docs/benchmarks.md, (ap)).
    @inlinable
    public func frame(fin: Bool = true, opcode: WebSocketOpcode, payload: some Collection<UInt8>) -> ByteChunk {
        let done: ByteChunk? = payload.withContiguousStorageIfAvailable {
            frame(fin: fin, opcode: opcode, payload: UnsafeRawBufferPointer($0))
        }
        return done ?? Array(payload).withUnsafeBytes { frame(fin: fin, opcode: opcode, payload: $0) }
    }

    /// Any frame, from a buffer.
    public func frame(fin: Bool = true, opcode: WebSocketOpcode, payload: UnsafeRawBufferPointer) -> ByteChunk {
        Self.encode(fin: fin, opcode: opcode, payload: payload, maskingKey: role == .client ? .random() : nil)
    }

    /// A whole frame of `payloadCount` bytes that `writePayload` writes in place, where they
    /// go in the frame (it must write exactly that many): a payload assembled from parts,
    /// such as an event around data already encoded, needs no buffer of its own to be copied
    /// from (docs/benchmarks.md, (ap)).
    public func frame(opcode: WebSocketOpcode, payloadCount: Int,
                      writePayload: (UnsafeMutableBufferPointer<UInt8>) -> Void) -> ByteChunk {
        let maskingKey: WebSocketMaskingKey? = role == .client ? .random() : nil
        let size = Self.frameSize(payloadCount: payloadCount, masked: maskingKey != nil)
        return ByteChunk.filled(capacity: size) { out in
            let position = Self.writeHeader(fin: true, opcode: opcode, payloadCount: payloadCount, maskingKey: maskingKey, into: out)
            let body = UnsafeMutableRawBufferPointer(rebasing: out[position..<(position + payloadCount)])
            writePayload(body.bindMemory(to: UInt8.self))
            maskingKey?.apply(to: body)
            return position + payloadCount
        }
    }

    // MARK: - Explicit encoding

    /// The wire size of a frame with `payloadCount` bytes of payload.
    public static func frameSize(payloadCount: Int, masked: Bool) -> Int {
        headerSize(payloadCount: payloadCount, masked: masked) + payloadCount
    }

    /// Encodes one frame into a chunk of exactly its size; masks the payload with
    /// `maskingKey` when one is given (clients must, servers must not).
    public static func encode(fin: Bool = true, opcode: WebSocketOpcode, payload: UnsafeRawBufferPointer,
                              maskingKey: WebSocketMaskingKey? = nil) -> ByteChunk {
        let size = frameSize(payloadCount: payload.count, masked: maskingKey != nil)
        return ByteChunk.filled(capacity: size) { out in
            write(fin: fin, opcode: opcode, payload: payload, maskingKey: maskingKey, into: out)
        }
    }

    /// Encodes one frame into an array of exactly its size; see `encode`.
    public static func encodeToArray(fin: Bool = true, opcode: WebSocketOpcode, payload: some Collection<UInt8>,
                                     maskingKey: WebSocketMaskingKey? = nil) -> [UInt8] {
        let bytes = Array(payload)
        let size = frameSize(payloadCount: bytes.count, masked: maskingKey != nil)
        return bytes.withUnsafeBytes { payload in
            [UInt8](unsafeUninitializedCapacity: size) { out, initialized in
                initialized = write(fin: fin, opcode: opcode, payload: payload, maskingKey: maskingKey,
                                    into: UnsafeMutableRawBufferPointer(out))
            }
        }
    }

    /// The payload of a close frame: the code in two bytes, then the reason as UTF-8, cut
    /// on a character boundary to fit the 125-byte control frame limit (a long reason is
    /// not worth failing a close over). No code means an empty payload, and then no reason.
    public static func closePayload(code: WebSocketCloseCode?, reason: String) -> [UInt8] {
        guard let code else { return [] }
        assert(code.isValidOnWire, "close code \(code) must not be sent")
        let text = Array(reason.utf8)
        var end = min(text.count, maxControlPayload - 2)
        // Back up to the start of a character if the cut lands on a continuation byte.
        while end < text.count && end > 0 && text[end] & 0xC0 == 0x80 {
            end -= 1
        }
        return [UInt8(truncatingIfNeeded: code.rawValue >> 8), UInt8(truncatingIfNeeded: code.rawValue)] + text[..<end]
    }

    // MARK: - Writing

    private static func headerSize(payloadCount: Int, masked: Bool) -> Int {
        let lengthBytes = payloadCount <= 125 ? 0 : payloadCount <= 0xFFFF ? 2 : 8
        return 2 + lengthBytes + (masked ? 4 : 0)
    }

    /// Writes the frame into `out`, which has room for exactly it; returns its size.
    private static func write(fin: Bool, opcode: WebSocketOpcode, payload: UnsafeRawBufferPointer,
                              maskingKey: WebSocketMaskingKey?, into out: UnsafeMutableRawBufferPointer) -> Int {
        let position = writeHeader(fin: fin, opcode: opcode, payloadCount: payload.count, maskingKey: maskingKey, into: out)
        let body = UnsafeMutableRawBufferPointer(rebasing: out[position..<(position + payload.count)])
        body.copyMemory(from: payload)
        maskingKey?.apply(to: body)
        return position + payload.count
    }

    /// Writes a frame's header into the start of `out`; returns where its payload begins.
    private static func writeHeader(fin: Bool, opcode: WebSocketOpcode, payloadCount count: Int,
                                    maskingKey: WebSocketMaskingKey?, into out: UnsafeMutableRawBufferPointer) -> Int {
        precondition(!opcode.isControl || (fin && count <= maxControlPayload),
                     "control frames are unfragmented and carry at most 125 bytes")
        let maskBit: UInt8 = maskingKey == nil ? 0 : 0x80
        out[0] = (fin ? 0x80 : 0) | opcode.rawValue
        var position = 2
        if count <= 125 {
            out[1] = maskBit | UInt8(count)
        } else if count <= 0xFFFF {
            out[1] = maskBit | 126
            out[2] = UInt8(truncatingIfNeeded: count >> 8)
            out[3] = UInt8(truncatingIfNeeded: count)
            position = 4
        } else {
            out[1] = maskBit | 127
            let length = UInt64(count)
            for i in 0..<8 {
                out[2 + i] = UInt8(truncatingIfNeeded: length >> (56 - 8 * UInt64(i)))
            }
            position = 10
        }
        if let maskingKey {
            for i in 0..<4 { out[position + i] = maskingKey[i] }
            position += 4
        }
        return position
    }
}
