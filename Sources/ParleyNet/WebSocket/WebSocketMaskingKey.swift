/// The 4-byte key a client XORs over every frame payload it sends (RFC 6455 §5.3), so
/// that a browser script cannot choose the bytes that reach intermediaries.
public struct WebSocketMaskingKey: Sendable, Hashable {
    /// The four key bytes in wire order, the first in the high byte.
    public let rawValue: UInt32

    /// A key from its four bytes in wire order.
    public init(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8, _ b3: UInt8) {
        rawValue = UInt32(b0) << 24 | UInt32(b1) << 16 | UInt32(b2) << 8 | UInt32(b3)
    }

    /// A key from its four bytes in wire order (the first in the high byte).
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// A fresh key from the system's secure generator; RFC 6455 requires keys that a
    /// script cannot predict.
    public static func random() -> WebSocketMaskingKey {
        // Not `random(using: &SystemRandomNumberGenerator())`: that generator is an empty
        // struct whose copies on every thread share one address, which ThreadSanitizer's
        // exclusivity checks report as a race between event loops.
        WebSocketMaskingKey(rawValue: UInt32.random(in: .min ... .max))
    }

    /// A key drawn from `generator`.
    public static func random(using generator: inout some RandomNumberGenerator) -> WebSocketMaskingKey {
        WebSocketMaskingKey(rawValue: generator.next())
    }

    /// The key byte at `index` (0–3), in wire order.
    public subscript(index: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: rawValue >> (24 - 8 * (index & 3)))
    }

    /// XORs the key over `buffer` in place, which both masks and unmasks. `offset` is how
    /// many payload bytes came before `buffer` in the same frame, so a payload can be
    /// processed in pieces.
    public func apply(to buffer: UnsafeMutableRawBufferPointer, offset: Int = 0) {
        guard let base = buffer.baseAddress else { return }
        let count = buffer.count
        // The key rotated so that its byte for the buffer's first position comes first.
        let shift = UInt32(8 * (offset & 3))
        let rotated = shift == 0 ? rawValue : (rawValue << shift) | (rawValue >> (32 - shift))
        // Eight bytes at a time: the rotated key twice, laid out in memory in wire order.
        let wide = UInt64(rotated) << 32 | UInt64(rotated)
        let pattern = UInt64(bigEndian: wide)
        var index = 0
        while index + 8 <= count {
            let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            base.storeBytes(of: word ^ pattern, toByteOffset: index, as: UInt64.self)
            index += 8
        }
        while index < count {
            let keyByte = UInt8(truncatingIfNeeded: rotated >> (24 - 8 * UInt32(index & 3)))
            base.storeBytes(of: base.load(fromByteOffset: index, as: UInt8.self) ^ keyByte,
                            toByteOffset: index, as: UInt8.self)
            index += 1
        }
    }
}
