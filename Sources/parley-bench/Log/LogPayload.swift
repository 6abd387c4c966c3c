/// The payloads of the log measurements and crash tests: derived from the record's place,
/// so a reader can check every byte it gets back without keeping a copy.
enum LogPayload {
    /// `size` bytes for `seq` of `conversation`.
    static func bytes(conversation: UInt64, seq: UInt64, size: Int) -> [UInt8] {
        var state = conversation &* 0x9E37_79B9_7F4A_7C15 ^ seq &* 0xBF58_476D_1CE4_E5B9
        return (0..<size).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }

    /// The crash test's sizes vary with the record (1–300 bytes), so tails tear at many
    /// different places.
    static func crashSize(conversation: UInt64, seq: UInt64) -> Int {
        Int(1 + (conversation &* 131 &+ seq &* 17) % 300)
    }
}
