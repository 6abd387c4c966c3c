/// SHA-1 (FIPS 180-4), fed incrementally.
///
/// Only here because the WebSocket handshake (RFC 6455 §4.2.2) defines its accept value with
/// SHA-1 and ParleyNet links no crypto library. SHA-1 is broken for collision resistance:
/// never use it to protect anything.
public struct SHA1: Sendable {
    /// The size of a digest in bytes.
    public static let digestSize = 20

    private var h0: UInt32 = 0x6745_2301
    private var h1: UInt32 = 0xEFCD_AB89
    private var h2: UInt32 = 0x98BA_DCFE
    private var h3: UInt32 = 0x1032_5476
    private var h4: UInt32 = 0xC3D2_E1F0
    // A partial block lives inline (no heap allocation per hasher).
    private var pending = SIMD64<UInt8>()
    private var pendingCount = 0
    private var totalBytes: UInt64 = 0

    /// A hasher that has seen no bytes yet.
    public init() {}

    /// The 20-byte digest of `bytes`.
    public static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var hasher = SHA1()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// Adds `bytes` to the message.
    public mutating func update(_ bytes: some Sequence<UInt8>) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
        if done == nil {
            Array(bytes).withUnsafeBytes { update($0) }
        }
    }

    /// Adds `bytes` to the message.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        totalBytes &+= UInt64(bytes.count)
        var index = 0
        if pendingCount > 0 {
            while pendingCount < 64 && index < bytes.count {
                pending[pendingCount] = base.load(fromByteOffset: index, as: UInt8.self)
                pendingCount += 1
                index += 1
            }
            guard pendingCount == 64 else { return }
            var block = pending
            withUnsafeBytes(of: &block) { buffer in
                if let base = buffer.baseAddress { compress(block: base) }
            }
            pendingCount = 0
        }
        // Whole blocks are hashed straight from the caller's memory.
        while bytes.count - index >= 64 {
            compress(block: base + index)
            index += 64
        }
        while index < bytes.count {
            pending[pendingCount] = base.load(fromByteOffset: index, as: UInt8.self)
            pendingCount += 1
            index += 1
        }
    }

    /// The digest of everything added so far. The hasher itself is left unchanged.
    public func finalize() -> [UInt8] {
        var copy = self
        let bitLength = totalBytes &* 8
        // Padding: 0x80, zeros up to 56 mod 64, then the 64-bit big-endian bit length.
        let padCount = (copy.pendingCount < 56 ? 56 : 120) - copy.pendingCount
        var padding = [UInt8](repeating: 0, count: padCount + 8)
        padding[0] = 0x80
        for i in 0..<8 {
            padding[padCount + i] = UInt8(truncatingIfNeeded: bitLength >> (56 - 8 * UInt64(i)))
        }
        copy.update(padding)
        var digest = [UInt8]()
        digest.reserveCapacity(Self.digestSize)
        for word in [copy.h0, copy.h1, copy.h2, copy.h3, copy.h4] {
            digest.append(UInt8(truncatingIfNeeded: word >> 24))
            digest.append(UInt8(truncatingIfNeeded: word >> 16))
            digest.append(UInt8(truncatingIfNeeded: word >> 8))
            digest.append(UInt8(truncatingIfNeeded: word))
        }
        return digest
    }

    /// Processes one 64-byte block.
    private mutating func compress(block: UnsafeRawPointer) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 80) { w in
            for t in 0..<16 {
                w[t] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 4 * t, as: UInt32.self))
            }
            for t in 16..<80 {
                w[t] = (w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16]).rotatedLeft(by: 1)
            }
            var a = h0, b = h1, c = h2, d = h3, e = h4
            for t in 0..<80 {
                let f: UInt32, k: UInt32
                switch t {
                case 0..<20: f = (b & c) | (~b & d); k = 0x5A82_7999
                case 20..<40: f = b ^ c ^ d; k = 0x6ED9_EBA1
                case 40..<60: f = (b & c) | (b & d) | (c & d); k = 0x8F1B_BCDC
                default: f = b ^ c ^ d; k = 0xCA62_C1D6
                }
                let temp = a.rotatedLeft(by: 5) &+ f &+ e &+ k &+ w[t]
                e = d
                d = c
                c = b.rotatedLeft(by: 30)
                b = a
                a = temp
            }
            h0 &+= a
            h1 &+= b
            h2 &+= c
            h3 &+= d
            h4 &+= e
        }
    }
}

// Rotation is not in the standard library; SHA-1 is built from it.
extension UInt32 {
    @inline(__always)
    fileprivate func rotatedLeft(by count: UInt32) -> UInt32 {
        (self << count) | (self >> (32 - count))
    }
}
