import ParleyNet

/// RFC 6455 framing read the slow, obvious way: the whole input at once, frame by frame,
/// with the standard library deciding UTF-8. The fuzz harness checks the streaming
/// `WebSocketFrameDecoder` against it.
///
/// It follows the order in which the decoder's rules are meant to apply (the first two
/// bytes, then the full header, then the payload as it arrives), so that the first error
/// has the same close code in both. Error reasons are free text and are not compared.
struct WebSocketReference {
    /// An event reduced to what must match: text by its bytes (`String` equality would
    /// accept canonically equivalent but different bytes), errors by their code only.
    enum Shape: Equatable, CustomStringConvertible {
        case text([UInt8])
        case binary([UInt8])
        case ping([UInt8])
        case pong([UInt8])
        case close(UInt16?, [UInt8])
        case error(UInt16)

        init(_ event: WebSocketEvent) {
            switch event {
            case .text(let text): self = .text(Array(text.utf8))
            case .binary(let bytes): self = .binary(bytes)
            case .ping(let bytes): self = .ping(bytes)
            case .pong(let bytes): self = .pong(bytes)
            case .close(let code, let reason): self = .close(code?.rawValue, Array(reason.utf8))
            case .protocolError(let code, _): self = .error(code.rawValue)
            }
        }

        var description: String {
            switch self {
            case .text(let bytes): "text(\(bytes.count) bytes)"
            case .binary(let bytes): "binary(\(bytes.count) bytes)"
            case .ping(let bytes): "ping(\(bytes.count) bytes)"
            case .pong(let bytes): "pong(\(bytes.count) bytes)"
            case .close(let code, let reason): "close(\(code.map(String.init) ?? "none"), \(reason.count) bytes)"
            case .error(let code): "error(\(code))"
            }
        }
    }

    let role: WebSocketRole
    let limits: WebSocketLimits

    /// The events `bytes` should produce, ending at the first error or close, or where
    /// the input stops.
    func events(_ bytes: [UInt8]) -> [Shape] {
        var events: [Shape] = []
        var at = 0
        // The data message being reassembled: its kind and bytes so far.
        var message: (isText: Bool, bytes: [UInt8])?
        while bytes.count - at >= 2 {
            let first = bytes[at], second = bytes[at + 1]
            let fin = first & 0x80 != 0
            let opcode = first & 0x0F
            let masked = second & 0x80 != 0
            let shortLength = Int(second & 0x7F)
            let isControl = opcode >= 8

            // Rules that the first two bytes already decide.
            guard first & 0x70 == 0, [0, 1, 2, 8, 9, 10].contains(opcode) else { return events + [.error(1002)] }
            guard masked == (role == .server) else { return events + [.error(1002)] }
            if isControl {
                guard fin, shortLength <= 125 else { return events + [.error(1002)] }
            } else if (opcode == 0) != (message != nil) {
                // A continuation needs an open message; a new text or binary forbids one.
                return events + [.error(1002)]
            }

            let lengthBytes = shortLength == 127 ? 8 : shortLength == 126 ? 2 : 0
            let headerLength = 2 + lengthBytes + (masked ? 4 : 0)
            guard bytes.count - at >= headerLength else { break }
            var length = UInt64(shortLength)
            if lengthBytes > 0 {
                length = bytes[(at + 2)..<(at + 2 + lengthBytes)].reduce(0) { $0 << 8 | UInt64($1) }
            }
            guard length < 1 << 63 else { return events + [.error(1002)] }
            guard length <= UInt64(limits.maxFrameSize) else { return events + [.error(1009)] }
            if !isControl, (message?.bytes.count ?? 0) + Int(length) > limits.maxMessageSize {
                return events + [.error(1009)]
            }
            let keyStart = at + 2 + lengthBytes
            let key = masked ? Array(bytes[keyStart..<(keyStart + 4)]) : [0, 0, 0, 0]
            let payloadStart = at + headerLength
            let available = min(Int(length), bytes.count - payloadStart)
            let payload = bytes[payloadStart..<(payloadStart + available)].enumerated().map { $0.element ^ key[$0.offset % 4] }

            if !isControl {
                if opcode != 0 { message = (isText: opcode == 1, bytes: []) }
                message?.bytes += payload
                if let message, message.isText, !UTF8Oracle.isValidPrefix(message.bytes[...]) {
                    return events + [.error(1007)]
                }
                guard available == Int(length) else { break }
                if fin, let done = message {
                    if done.isText {
                        guard UTF8Oracle.isValid(done.bytes) else { return events + [.error(1007)] }
                        events.append(.text(done.bytes))
                    } else {
                        events.append(.binary(done.bytes))
                    }
                    message = nil
                }
            } else {
                guard available == Int(length) else { break }
                switch opcode {
                case 9: events.append(.ping(payload))
                case 10: events.append(.pong(payload))
                default: return events + [close(payload)]
                }
            }
            at = payloadStart + available
        }
        return events
    }

    /// The event a close frame with `payload` gives.
    private func close(_ payload: [UInt8]) -> Shape {
        guard !payload.isEmpty else { return .close(nil, []) }
        guard payload.count >= 2 else { return .error(1002) }
        let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
        // RFC 6455 §7.4 with the IANA registrations since: 1000–1003, 1007–1014, 3000–4999.
        guard (1000...1003).contains(code) || (1007...1014).contains(code) || (3000...4999).contains(code) else {
            return .error(1002)
        }
        let reason = Array(payload.dropFirst(2))
        guard UTF8Oracle.isValid(reason) else { return .error(1007) }
        return .close(code, reason)
    }
}
