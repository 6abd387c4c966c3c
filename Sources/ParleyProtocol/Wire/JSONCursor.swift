/// Writes JSON into memory whose size was counted beforehand (`JSONWriter.stringCount`,
/// `JSONWriter.decimalCount`): no capacity check, uniqueness check or growth a piece, as an
/// array's `append` makes. For the hot path's payloads, whose size is cheap to know exactly
/// (a text message's event, a delivered receipt): they are written once, straight into the
/// array or frame that carries them (docs/benchmarks.md, (ap)).
///
/// The caller guarantees the room: every write is checked in debug builds only.
public struct JSONCursor {
    /// Where the next byte goes.
    @usableFromInline var position: UnsafeMutablePointer<UInt8>
    /// Just past the room the caller counted.
    @usableFromInline let end: UnsafeMutablePointer<UInt8>

    /// A cursor at the start of `buffer`, which has room for everything that will be written.
    @inlinable
    public init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        // An empty buffer may have no address; nothing is then written through it.
        let start = buffer.baseAddress ?? UnsafeMutablePointer(bitPattern: 1).unsafelyUnwrapped
        position = start
        end = start + buffer.count
    }

    /// An array of the `count` bytes that `write` writes (it must write exactly that many),
    /// made zeroed and then written (zeroing a payload's few hundred bytes costs ≈ 30
    /// instructions). Its allocation still goes through the runtime's unspecialized
    /// `_allocateBufferUninitialized`, ≈ 530 instructions (docs/benchmarks.md, (ap)).
    public static func array(count: Int, _ write: (inout JSONCursor) -> Void) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBufferPointer { fill($0, write) }
        return bytes
    }

    /// Fills all of `buffer` with what `write` writes: it must write exactly `buffer.count`
    /// bytes, counted beforehand, which is checked here for every caller (a miscount would
    /// otherwise send a frame with bytes nobody wrote).
    public static func fill(_ buffer: UnsafeMutableBufferPointer<UInt8>, _ write: (inout JSONCursor) -> Void) {
        var cursor = JSONCursor(buffer)
        write(&cursor)
        let written = cursor.written(from: buffer.baseAddress ?? cursor.position)
        precondition(written == buffer.count, "JSONCursor: \(buffer.count) bytes counted, \(written) written")
    }

    /// The bytes written from `start`, the cursor's first position.
    @inlinable
    public func written(from start: UnsafeMutablePointer<UInt8>) -> Int { position - start }

    /// One byte.
    @inlinable
    public mutating func byte(_ byte: UInt8) {
        assert(end - position >= 1, "JSONCursor wrote past the counted size")
        position.initialize(to: byte)
        position += 1
    }

    /// A literal's bytes.
    @inlinable
    public mutating func literal(_ literal: StaticString) {
        bytes(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Bytes copied as they are.
    @inlinable
    public mutating func bytes(_ bytes: UnsafeBufferPointer<UInt8>) {
        assert(end - position >= bytes.count, "JSONCursor wrote past the counted size")
        guard let source = bytes.baseAddress else { return }
        position.update(from: source, count: bytes.count)
        position += bytes.count
    }

    /// The decimal digits of `value` (`JSONWriter.decimalCount` bytes), written from the last.
    public mutating func decimal(_ value: Int64) {
        let count = JSONWriter.decimalCount(value)
        assert(end - position >= count, "JSONCursor wrote past the counted size")
        var magnitude = value.magnitude
        var digit = position + count
        repeat {
            digit -= 1
            digit.initialize(to: UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        if value < 0 { position.initialize(to: UInt8(ascii: "-")) }
        position += count
    }

    /// A JSON string literal of `string` (`JSONWriter.stringCount` bytes), escaped as
    /// `JSONWriter.appendString` escapes.
    public mutating func string(_ string: String) {
        // Read in place where the string is contiguous (native or small), with no copy of
        // the string to make `withUTF8` mutable.
        if string.utf8.withContiguousStorageIfAvailable({ quoted($0) }) != nil { return }
        var string = string
        string.withUTF8 { quoted($0) }
    }

    /// `string`'s work on its UTF-8 bytes.
    private mutating func quoted(_ utf8: UnsafeBufferPointer<UInt8>) {
        byte(UInt8(ascii: "\""))
        var runStart = 0
        while true {
            let end = JSONPlainBytes.runEnd(utf8, from: runStart)
            bytes(UnsafeBufferPointer(rebasing: utf8[runStart..<end]))
            guard end < utf8.count else { break }
            let escape = JSONWriter.escape(utf8[end])
            for index in 0..<escape.count { byte(escape.byte(index)) }
            runStart = end + 1
        }
        byte(UInt8(ascii: "\""))
    }
}
