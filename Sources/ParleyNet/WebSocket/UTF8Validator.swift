/// A streaming UTF-8 validator: bytes can arrive in pieces cut anywhere, even inside a
/// character, so a WebSocket text message can be checked fragment by fragment and refused
/// at the first bad byte (RFC 6455 §8.1) instead of after the whole message is buffered.
///
/// It accepts exactly the well-formed sequences of the Unicode standard (Table 3-7): no
/// overlong forms, no surrogates (U+D800–U+DFFF), nothing above U+10FFFF.
public struct UTF8Validator: Sendable, Equatable {
    /// Where the validator is inside a character. The "after" states constrain the second
    /// byte of the sequences whose first byte alone cannot rule out an overlong form, a
    /// surrogate or a value above U+10FFFF.
    private enum State: UInt8, Sendable {
        /// Between characters.
        case boundary
        /// One more continuation byte (80–BF) completes the character.
        case needsOne
        /// Two more continuation bytes.
        case needsTwo
        /// Three more continuation bytes.
        case needsThree
        /// After E0: A0–BF, else the form is overlong.
        case afterE0
        /// After ED: 80–9F, else it encodes a surrogate.
        case afterED
        /// After F0: 90–BF, else the form is overlong.
        case afterF0
        /// After F4: 80–8F, else it is above U+10FFFF.
        case afterF4
        /// A bad byte was seen; stays here until `reset`.
        case invalid
    }

    private var state = State.boundary

    /// A validator at the start of a text.
    public init() {}

    /// False once any invalid byte has been seen.
    public var isValid: Bool { state != .invalid }

    /// True when everything seen is valid and ends on a character boundary.
    public var isComplete: Bool { state == .boundary }

    /// Checks the next bytes of the text; returns false (and stays invalid) as soon as they
    /// cannot be part of valid UTF-8. A character cut off at the end is not an error yet.
    @discardableResult
    public mutating func validate(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard state != .invalid else { return false }
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var current = state
        var index = 0
        while index < count {
            if current == .boundary {
                // ASCII fast path: chat text is mostly ASCII, so skip eight bytes at a time
                // while none has its high bit set.
                while index + 8 <= count,
                      base.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                    index += 8
                }
                guard index < count else { break }
            }
            current = Self.step(current, base.load(fromByteOffset: index, as: UInt8.self))
            if current == .invalid { break }
            index += 1
        }
        state = current
        return current != .invalid
    }

    /// Checks the next bytes of the text; see `validate(_:)` for buffers.
    @discardableResult
    public mutating func validate(_ bytes: some Sequence<UInt8>) -> Bool {
        let done: Bool? = bytes.withContiguousStorageIfAvailable { validate(UnsafeRawBufferPointer($0)) }
        return done ?? Array(bytes).withUnsafeBytes { validate($0) }
    }

    /// Ends the text: true if it was valid and did not stop inside a character. The
    /// validator is reset for the next text either way.
    public mutating func finish() -> Bool {
        defer { state = .boundary }
        return state == .boundary
    }

    /// Forgets everything seen so far.
    public mutating func reset() {
        state = .boundary
    }

    /// True if `bytes` is complete, valid UTF-8.
    public static func isValid(_ bytes: some Sequence<UInt8>) -> Bool {
        var validator = UTF8Validator()
        return validator.validate(bytes) && validator.finish()
    }

    @inline(__always)
    private static func step(_ state: State, _ byte: UInt8) -> State {
        switch state {
        case .boundary:
            switch byte {
            case 0x00...0x7F: return .boundary
            case 0xC2...0xDF: return .needsOne
            case 0xE0: return .afterE0
            case 0xE1...0xEC, 0xEE...0xEF: return .needsTwo
            case 0xED: return .afterED
            case 0xF0: return .afterF0
            case 0xF1...0xF3: return .needsThree
            case 0xF4: return .afterF4
            default: return .invalid  // stray continuation, C0/C1 overlongs, F5–FF
            }
        case .needsOne: return (0x80...0xBF).contains(byte) ? .boundary : .invalid
        case .needsTwo: return (0x80...0xBF).contains(byte) ? .needsOne : .invalid
        case .needsThree: return (0x80...0xBF).contains(byte) ? .needsTwo : .invalid
        case .afterE0: return (0xA0...0xBF).contains(byte) ? .needsOne : .invalid
        case .afterED: return (0x80...0x9F).contains(byte) ? .needsOne : .invalid
        case .afterF0: return (0x90...0xBF).contains(byte) ? .needsTwo : .invalid
        case .afterF4: return (0x80...0x8F).contains(byte) ? .needsTwo : .invalid
        case .invalid: return .invalid
        }
    }
}
