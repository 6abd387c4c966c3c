/// The bare relay's frames (`relay-server`), all text:
///
/// - client → relay: `S <topic>` subscribes this socket to a topic; `P <id> <topic> <payload>`
///   forwards `<payload>` to every other subscriber of `<topic>`, then answers `A <id>`.
/// - relay → client: the payload alone, as sent; `A <id>`; `E <reason>` for a frame it
///   could not read.
///
/// Topics and ids are words without spaces. This is all the "protocol" there is: the relay
/// measures the transport (ParleyNet's WebSockets, one encoding per fan-out) without storage,
/// JSON or permissions.
enum RelayFrames {
    /// A client's command, as the relay reads it.
    enum Command: Equatable {
        case subscribe(topic: Substring)
        case publish(id: Substring, topic: Substring, payload: Substring)
    }

    static func subscribe(_ topic: String) -> String { "S \(topic)" }

    static func publish(id: UInt64, topic: String, payload: String) -> String { "P \(id) \(topic) \(payload)" }

    /// Reads a client's frame; nil if it is not a command.
    static func command(_ text: String) -> Command? {
        guard text.count >= 3, text.utf8.dropFirst().first == UInt8(ascii: " ") else { return nil }
        let rest = text.dropFirst(2)
        switch text.utf8.first {
        case UInt8(ascii: "S"):
            guard !rest.isEmpty, !rest.contains(" ") else { return nil }
            return .subscribe(topic: rest)
        case UInt8(ascii: "P"):
            let parts = rest.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
            return .publish(id: parts[0], topic: parts[1], payload: parts[2])
        default:
            return nil
        }
    }

    /// What a frame from the relay means to the load.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> Incoming {
        if bytes.count > 2, bytes[0] == UInt8(ascii: "A"), bytes[1] == UInt8(ascii: " ") {
            var value: UInt64 = 0
            for index in 2..<bytes.count {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return .malformed("bad ack id") }
                value = value &* 10 &+ UInt64(digit)
            }
            return .ack(sentAt: value)
        }
        if bytes.count > 2, bytes[0] == UInt8(ascii: "E"), bytes[1] == UInt8(ascii: " ") {
            return .refused(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[2...]), as: UTF8.self))
        }
        guard let stamp = MessageStamp.read(bytes, at: 0) else { return .malformed("not a stamped payload") }
        return .delivery(sentAt: stamp.sentAt, step: stamp.step)
    }
}
