/// The text every measured message carries, so that whoever receives it can tell when it was
/// sent and to which step it belongs, with nothing kept per message by the sender:
/// `b|<20 digits of monotonic ns>|<4 digits of step>|` and padding up to the message size.
///
/// The monotonic clock is one for the whole machine, so a stamp written by one process is
/// read correctly by another (worker processes, the server's echo).
enum MessageStamp {
    /// `b|`, 20 digits, `|`, 4 digits, `|`.
    static let headerSize = 28

    /// A message of `size` bytes (at least `headerSize`) stamped with `time` and `step`.
    static func text(sentAt time: UInt64, step: Int, size: Int) -> String {
        var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: max(size, headerSize))
        write(sentAt: time, step: step, into: &bytes, at: 0)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes a stamp into `bytes` at `offset` (which must leave `headerSize` bytes).
    static func write(sentAt time: UInt64, step: Int, into bytes: inout [UInt8], at offset: Int) {
        bytes[offset] = UInt8(ascii: "b")
        bytes[offset + 1] = UInt8(ascii: "|")
        var value = time
        for index in stride(from: offset + 21, through: offset + 2, by: -1) {
            bytes[index] = UInt8(ascii: "0") + UInt8(value % 10)
            value /= 10
        }
        bytes[offset + 22] = UInt8(ascii: "|")
        var stepValue = step % 10_000
        for index in stride(from: offset + 26, through: offset + 23, by: -1) {
            bytes[index] = UInt8(ascii: "0") + UInt8(stepValue % 10)
            stepValue /= 10
        }
        bytes[offset + 27] = UInt8(ascii: "|")
    }

    /// Reads a stamp that starts at `offset`; nil if the bytes there are not one.
    static func read(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> (sentAt: UInt64, step: Int)? {
        guard offset >= 0, offset + headerSize <= bytes.count, bytes[offset] == UInt8(ascii: "b"),
              bytes[offset + 1] == UInt8(ascii: "|"), bytes[offset + 22] == UInt8(ascii: "|"),
              bytes[offset + 27] == UInt8(ascii: "|") else { return nil }
        var sentAt: UInt64 = 0
        for index in (offset + 2)..<(offset + 22) {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            sentAt = sentAt &* 10 &+ UInt64(digit)
        }
        var step = 0
        for index in (offset + 23)..<(offset + 27) {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            step = step * 10 + Int(digit)
        }
        return (sentAt, step)
    }
}
