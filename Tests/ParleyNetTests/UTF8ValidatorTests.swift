import Testing
@testable import ParleyNet

@Suite struct UTF8ValidatorTests {
    @Test func acceptsWellFormedText() {
        let samples = ["", "hello", "κόσμε", "日本語のテキスト", "😀 emoji 𝄞", "\u{7F}\u{80}\u{7FF}\u{800}\u{FFFF}\u{10000}\u{10FFFF}",
                       String(repeating: "a", count: 100) + "é" + String(repeating: "b", count: 33)]
        for text in samples {
            #expect(UTF8Validator.isValid(Array(text.utf8)), "\(text)")
        }
    }

    @Test func rejectsMalformedSequences() {
        let bad: [[UInt8]] = [
            [0x80],                         // lone continuation
            [0xBF],
            [0xC0, 0xAF],                   // overlong "/"
            [0xC1, 0xBF],                   // overlong
            [0xE0, 0x80, 0xAF],             // overlong 3-byte
            [0xE0, 0x9F, 0xBF],             // overlong U+07FF
            [0xF0, 0x8F, 0xBF, 0xBF],       // overlong U+FFFF
            [0xED, 0xA0, 0x80],             // U+D800 surrogate
            [0xED, 0xBF, 0xBF],             // U+DFFF surrogate
            [0xF4, 0x90, 0x80, 0x80],       // U+110000
            [0xF5, 0x80, 0x80, 0x80],
            [0xFE], [0xFF],
            [0xC3, 0x28],                   // continuation missing
            [0xE2, 0x82, 0x41],
            Array("abcdefgh".utf8) + [0x80] + Array("abcdefgh".utf8),  // past the ASCII fast path
        ]
        for bytes in bad {
            var validator = UTF8Validator()
            let accepted = validator.validate(bytes)
            #expect(!accepted, "\(bytes)")
            #expect(!validator.isValid)
            let finished = validator.finish()
            #expect(!finished)
        }
    }

    @Test func incompleteSequenceAtEndIsRejectedOnlyAtFinish() {
        for bytes: [UInt8] in [[0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98]] {
            var validator = UTF8Validator()
            let accepted = validator.validate(bytes)
            #expect(accepted)
            #expect(validator.isValid)
            #expect(!validator.isComplete)
            let finished = validator.finish()
            #expect(!finished)
        }
    }

    @Test func boundaryCodePointsAreAccepted() {
        let good: [[UInt8]] = [
            [0xC2, 0x80], [0xDF, 0xBF], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80],
            [0xEF, 0xBF, 0xBF], [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF],
        ]
        for bytes in good {
            #expect(UTF8Validator.isValid(bytes), "\(bytes)")
        }
    }

    @Test func splitAtEveryByteGivesTheSameAnswer() {
        let text = Array("ascii then é, €, 😀 and 𝄞 — mixed".utf8)
        for cut in 0...text.count {
            var validator = UTF8Validator()
            let first = validator.validate(text[..<cut])
            let second = validator.validate(text[cut...])
            let finished = validator.finish()
            #expect(first && second && finished, "cut at \(cut)")
        }
        var validator = UTF8Validator()
        var accepted = true
        for byte in text { accepted = validator.validate([byte]) && accepted }
        let finished = validator.finish()
        #expect(accepted && finished, "byte at a time")
    }

    @Test func finishResetsForTheNextText() {
        var validator = UTF8Validator()
        validator.validate([0xE2])
        let cutShort = validator.finish()
        #expect(!cutShort)
        let accepted = validator.validate(Array("ok".utf8))
        let finished = validator.finish()
        #expect(accepted && finished)
        validator.validate([0xFF])
        validator.reset()
        #expect(validator.isValid)
    }

    @Test func agreesWithTheStandardLibraryOnAllTwoByteInputs() {
        var disagreements: [[UInt8]] = []
        for a in 0...255 {
            for b in 0...255 {
                let bytes = [UInt8(a), UInt8(b)]
                let standard = String(validating: bytes, as: UTF8.self) != nil
                if UTF8Validator.isValid(bytes) != standard { disagreements.append(bytes) }
            }
        }
        #expect(disagreements.isEmpty)
    }

    @Test func agreesWithTheStandardLibraryOnThreeByteLeads() {
        for lead in [0xE0, 0xE1, 0xED, 0xEF, 0xF0, 0xF4] as [UInt8] {
            for second in 0x70...0xC0 {
                let bytes: [UInt8] = lead >= 0xF0 ? [lead, UInt8(second), 0x80, 0x80] : [lead, UInt8(second), 0x80]
                let standard = String(validating: bytes, as: UTF8.self) != nil
                #expect(UTF8Validator.isValid(bytes) == standard, "\(bytes)")
            }
        }
    }
}
