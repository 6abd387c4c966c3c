import Testing
@testable import ParleyCore
import ParleyProtocol

/// Free text is bounded in Unicode scalars and UTF-8 bytes, never in grapheme clusters, which
/// can be any size.
struct TextLimitsTests {
    /// "a" and a million combining accents: one `Character`, two megabytes.
    static let graphemeBomb = "a" + String(repeating: "\u{0301}", count: 1_000_000)

    @Test func oneCharacterOfMegabytesIsRefusedForEveryField() {
        #expect(Self.graphemeBomb.count == 1)
        let limits = TextLimits()
        for field in TextField.allCases {
            #expect(throws: ProtocolError.self, "\(field)") { try limits.validate(Self.graphemeBomb, as: field) }
        }
    }

    @Test func theErrorNamesTheFieldAndBothBounds() {
        do {
            try TextLimits().validate(String(repeating: "x", count: 33), as: .nickname)
            Issue.record("accepted")
        } catch {
            #expect(error.code == .invalidField && error.field == "nickname")
            #expect(error.message.contains("32 characters") && error.message.contains("128 bytes"))
        }
        do {
            try TextLimits().validate("x", as: .name)
            Issue.record("accepted")
        } catch {
            #expect(error.code == .invalidName && error.field == "name")
        }
    }

    @Test func charactersAreScalarsAndBytesAreCountedToo() throws {
        var limits = TextLimits()
        // 32 Chinese characters: 32 scalars, 96 bytes.
        try limits.validate(String(repeating: "中", count: 32), as: .nickname)
        #expect(throws: ProtocolError.self) { try limits.validate(String(repeating: "中", count: 33), as: .nickname) }
        // A byte limit below four bytes a scalar binds first.
        limits[.nickname] = TextLimit(characters: 0...32, bytes: 40)
        #expect(throws: ProtocolError.self) { try limits.validate(String(repeating: "中", count: 14), as: .nickname) }
        try limits.validate(String(repeating: "中", count: 13), as: .nickname)
        // A flag is two scalars.
        limits[.nickname] = TextLimit(characters: 0...3, bytes: 100)
        #expect(throws: ProtocolError.self) { try limits.validate("🇨🇳🇨🇳", as: .nickname) }
        try limits.validate("🇨🇳a", as: .nickname)
    }

    @Test func eachFieldKeepsItsOwnLimit() {
        #expect(TextField.allCases.enumerated().allSatisfy { $0.offset == $0.element.position })
        var limits = TextLimits()
        for (index, field) in TextField.allCases.enumerated() {
            limits[field] = TextLimit(characters: 0...(100 + index), bytes: 1000 + index)
        }
        for (index, field) in TextField.allCases.enumerated() {
            #expect(limits[field] == TextLimit(characters: 0...(100 + index), bytes: 1000 + index), "\(field)")
        }
        #expect(TextLimits()[.text] == TextField.text.defaultLimit)
    }

    @Test func minimumsAndControlCharacters() throws {
        let limits = TextLimits()
        #expect(throws: ProtocolError.self) { try limits.validate("", as: .text) }
        #expect(throws: ProtocolError.self) { try limits.validate("", as: .hobby) }
        try limits.validate("two\nlines\tand a tab", as: .text)
        #expect(throws: ProtocolError.self) { try limits.validate("bell\u{07}", as: .text) }
        #expect(throws: ProtocolError.self) { try limits.validate("new\nline", as: .nickname) }
    }

    /// The scan reads eight bytes at a time: a control character is found at every offset of a
    /// long text, across word boundaries, and the bytes next to the ranges pass.
    @Test func controlCharactersAreFoundAtEveryOffset() throws {
        let limits = TextLimits()
        let filler = String(repeating: "x", count: 40)
        try limits.validate(filler, as: .clientId)
        for offset in 0...40 {
            for control in ["\u{00}", "\u{1F}", "\u{7F}", "\u{80}", "\u{85}", "\u{9F}"] {
                var text = filler
                text.insert(contentsOf: control, at: text.index(text.startIndex, offsetBy: offset))
                #expect(throws: ProtocolError.self, "\(control.unicodeScalars.first!.value) at \(offset)") {
                    try limits.validate(text, as: .text)
                }
            }
            // Line breaks and tabs only where the field takes them.
            var text = filler
            text.insert("\n", at: text.index(text.startIndex, offsetBy: offset))
            try limits.validate(text, as: .text)
            #expect(throws: ProtocolError.self) { try limits.validate(text, as: .clientId) }
        }
        // Space, tilde, a no-break space (0xC2 0xA0: C1's lead byte, not a C1 character) and
        // other two-byte letters are text.
        try limits.validate(String(repeating: " ~\u{A0}é中", count: 20), as: .text)
        try limits.validate(String(repeating: "\u{A0}", count: 30), as: .text)
    }

    @Test func minimumsAreScalarsEvenWhenTheBytesSuffice() throws {
        let limits = TextLimits()
        try limits.validate("ab", as: .name)
        try limits.validate("中文", as: .name)
        #expect(throws: ProtocolError.self, "one scalar of three bytes") { try limits.validate("中", as: .name) }
        #expect(throws: ProtocolError.self, "one scalar of four bytes") { try limits.validate("😀", as: .name) }
        #expect(TextLimit(characters: 3...10, bytes: 40).allows("😀😀😀"))
        #expect(!TextLimit(characters: 3...10, bytes: 40).allows("😀😀"))
    }

    /// Eight bytes at once answer as the bytes one by one do.
    @Test func byteWordsAnswerAsTheirBytes() {
        var generator = SystemRandomNumberGenerator()
        var words: [[UInt8]] = (0..<2_000).map { _ in (0..<8).map { _ in UInt8.random(in: 0...255, using: &generator) } }
        // Every byte value alone among harmless ones, at every place.
        for value in 0...255 {
            for place in 0..<8 {
                var bytes = [UInt8](repeating: 0x61, count: 8)
                bytes[place] = UInt8(value)
                words.append(bytes)
            }
        }
        for bytes in words {
            let word = bytes.withUnsafeBytes { ByteWord($0.baseAddress!, at: 0) }
            for bound: UInt8 in [1, 0x20, 0x80] {
                #expect(word.hasByte(below: bound) == bytes.contains { $0 < bound }, "\(bytes) below \(bound)")
            }
            for value: UInt8 in [0x00, 0x22, 0x5C, 0x7F, 0xC2, 0xFF] {
                #expect(word.hasByte(value) == bytes.contains(value), "\(bytes) has \(value)")
            }
        }
    }

    @Test func clippingCutsAtScalarsAndBytes() {
        let limit = TextLimit(characters: 0...4, bytes: 7)
        #expect(limit.clipped("abcdef") == "abcd")
        #expect(limit.clipped("中中中") == "中中", "a third would pass 7 bytes")
        #expect(limit.clipped(Self.graphemeBomb).unicodeScalars.count == 4)
        #expect(limit.allows(limit.clipped(Self.graphemeBomb)))
    }
}
