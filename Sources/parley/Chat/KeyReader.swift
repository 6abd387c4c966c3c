import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads standard input on a thread of its own (a blocking `read` must not hold up the main
/// actor) and decodes the bytes into keys.
final class KeyReader: Sendable {
    /// Starts reading; every key goes to `deliver`, end of input to `finished`.
    static func start(deliver: @escaping @Sendable ([Key]) -> Void, finished: @escaping @Sendable () -> Void) {
        let thread = Thread {
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 256)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else {
                    finished()
                    return
                }
                pending += buffer[0..<count]
                let (keys, rest) = decode(pending)
                pending = rest
                if !keys.isEmpty { deliver(keys) }
            }
        }
        thread.name = "parley-chat-keys"
        thread.start()
    }

    /// Decodes whole keys from `bytes`; returns them and an incomplete UTF-8 tail.
    static func decode(_ bytes: [UInt8]) -> (keys: [Key], rest: [UInt8]) {
        var keys: [Key] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x1B:
                let (key, length) = escape(bytes, at: index)
                keys.append(key)
                index += length
                continue
            case 0x0D, 0x0A: keys.append(.enter)
            case 0x09: keys.append(.tab)
            case 0x7F, 0x08: keys.append(.backspace)
            case 0x01...0x1A: keys.append(.ctrl(Character(Unicode.Scalar(byte + 0x60))))
            case 0x00, 0x1C...0x1F: break
            default:
                let length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                guard index + length <= bytes.count else { return (keys, Array(bytes[index...])) }
                let text = String(decoding: bytes[index..<index + length], as: UTF8.self)
                keys += text.map { Key.character($0) }
                index += length
                continue
            }
            index += 1
        }
        return (keys, [])
    }

    /// An escape sequence at `start`: the key and how many bytes it took.
    private static func escape(_ bytes: [UInt8], at start: Int) -> (Key, Int) {
        guard start + 1 < bytes.count else { return (.escape, 1) }
        let kind = bytes[start + 1]
        guard kind == UInt8(ascii: "[") || kind == UInt8(ascii: "O") else { return (.escape, 1) }
        var end = start + 2
        while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
        guard end < bytes.count else { return (.escape, bytes.count - start) }
        let final = bytes[end]
        let parameter = String(decoding: bytes[(start + 2)..<end], as: UTF8.self)
        let length = end - start + 1
        switch final {
        case UInt8(ascii: "A"): return (.up, length)
        case UInt8(ascii: "B"): return (.down, length)
        case UInt8(ascii: "C"): return (.right, length)
        case UInt8(ascii: "D"): return (.left, length)
        case UInt8(ascii: "H"): return (.home, length)
        case UInt8(ascii: "F"): return (.end, length)
        case UInt8(ascii: "Z"): return (.backTab, length)
        case UInt8(ascii: "P"): return (.function(1), length)
        case UInt8(ascii: "Q"): return (.function(2), length)
        case UInt8(ascii: "~"):
            switch parameter {
            case "1", "7": return (.home, length)
            case "4", "8": return (.end, length)
            case "3": return (.delete, length)
            case "5": return (.pageUp, length)
            case "6": return (.pageDown, length)
            case "11": return (.function(1), length)
            case "12": return (.function(2), length)
            default: return (.escape, length)
            }
        default:
            return (.escape, length)
        }
    }
}
