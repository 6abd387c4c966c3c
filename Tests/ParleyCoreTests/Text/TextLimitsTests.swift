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

    @Test func minimumsAndControlCharacters() throws {
        let limits = TextLimits()
        #expect(throws: ProtocolError.self) { try limits.validate("", as: .text) }
        #expect(throws: ProtocolError.self) { try limits.validate("", as: .hobby) }
        try limits.validate("two\nlines\tand a tab", as: .text)
        #expect(throws: ProtocolError.self) { try limits.validate("bell\u{07}", as: .text) }
        #expect(throws: ProtocolError.self) { try limits.validate("new\nline", as: .nickname) }
    }

    @Test func clippingCutsAtScalarsAndBytes() {
        let limit = TextLimit(characters: 0...4, bytes: 7)
        #expect(limit.clipped("abcdef") == "abcd")
        #expect(limit.clipped("中中中") == "中中", "a third would pass 7 bytes")
        #expect(limit.clipped(Self.graphemeBomb).unicodeScalars.count == 4)
        #expect(limit.allows(limit.clipped(Self.graphemeBomb)))
    }
}
