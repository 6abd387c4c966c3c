@testable import ParleyNet

/// Frame bytes built by hand, independent of `WebSocketFrameEncoder`, so decoder tests do
/// not only check the encoder against itself.
enum RawFrame {
    /// How the payload length is written.
    enum LengthForm { case minimal, sixteen, sixtyFour }

    static func make(fin: Bool = true, rsv: UInt8 = 0, opcode: UInt8, mask: [UInt8]? = nil,
                     payload: [UInt8], lengthForm: LengthForm = .minimal) -> [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | (rsv << 4) | opcode]
        let maskBit: UInt8 = mask == nil ? 0 : 0x80
        let count = payload.count
        var form = lengthForm
        if form == .minimal { form = count <= 125 ? .minimal : count <= 0xFFFF ? .sixteen : .sixtyFour }
        switch form {
        case .minimal:
            bytes.append(maskBit | UInt8(count))
        case .sixteen:
            bytes += [maskBit | 126, UInt8(count >> 8), UInt8(count & 0xFF)]
        case .sixtyFour:
            bytes.append(maskBit | 127)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((count >> shift) & 0xFF)) }
        }
        if let mask {
            bytes += mask
            bytes += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        } else {
            bytes += payload
        }
        return bytes
    }

    /// A frame as a client sends it: masked with a fixed key.
    static func client(fin: Bool = true, opcode: UInt8, _ payload: [UInt8], lengthForm: LengthForm = .minimal) -> [UInt8] {
        make(fin: fin, opcode: opcode, mask: [0x37, 0xFA, 0x21, 0x3D], payload: payload, lengthForm: lengthForm)
    }

    /// A client text frame.
    static func clientText(_ text: String, fin: Bool = true) -> [UInt8] {
        client(fin: fin, opcode: 0x1, Array(text.utf8))
    }
}

extension WebSocketFrameDecoder {
    /// Feeds `bytes` and returns every event they complete.
    mutating func decode(_ bytes: [UInt8]) -> [WebSocketEvent] {
        feed(bytes)
        return drain()
    }

    /// Feeds `bytes` one byte per call, collecting events as they come.
    mutating func decodeByteAtATime(_ bytes: [UInt8]) -> [WebSocketEvent] {
        var events: [WebSocketEvent] = []
        for byte in bytes {
            feed([byte])
            events += drain()
        }
        return events
    }

    /// Every event available now.
    mutating func drain() -> [WebSocketEvent] {
        var events: [WebSocketEvent] = []
        while let event = next() { events.append(event) }
        return events
    }
}

extension WebSocketEvent {
    /// The close code of a protocol error, for compact assertions.
    var errorCode: UInt16? {
        if case .protocolError(let code, _) = self { return code.rawValue }
        return nil
    }
}
