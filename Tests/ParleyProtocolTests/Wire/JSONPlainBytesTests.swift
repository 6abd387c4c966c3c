import Foundation
import Testing
@testable import ParleyProtocol

@Suite struct JSONPlainBytesTests {
    /// Every byte value at every place of a run that spans words and a tail, in plain ASCII
    /// and in UTF-8 continuation bytes: the run ends exactly at the first quote, backslash or
    /// control character, as a byte-by-byte walk says.
    @Test func theRunEndsAtTheFirstByteThatNeedsAttention() {
        for filler in [UInt8(ascii: "a"), 0x80, 0xFF, 0x7F, 0x20, 0x21, 0x23, 0x5B, 0x5D] {
            for value in 0...255 {
                for place in 0..<19 {
                    var bytes = [UInt8](repeating: filler, count: 19)
                    bytes[place] = UInt8(value)
                    let expected = bytes.firstIndex(where: JSONPlainBytes.needsAttention) ?? bytes.count
                    let found = bytes.withUnsafeBufferPointer { JSONPlainBytes.runEnd($0, from: 0) }
                    #expect(found == expected, "byte \(value) at \(place) among \(filler)")
                }
            }
        }
    }

    @Test func theRunStartsWhereItIsAskedToAndMayBeEmpty() {
        let bytes = Array(#"ab"cdefghijklmnop\q"#.utf8)
        bytes.withUnsafeBufferPointer { buffer in
            #expect(JSONPlainBytes.runEnd(buffer, from: 0) == 2)
            #expect(JSONPlainBytes.runEnd(buffer, from: 2) == 2)
            #expect(JSONPlainBytes.runEnd(buffer, from: 3) == 17)
            #expect(JSONPlainBytes.runEnd(buffer, from: 18) == 19)
        }
        #expect([UInt8]().withUnsafeBufferPointer { JSONPlainBytes.runEnd($0, from: 0) } == 0)
    }

    /// The writer escapes what the reader stops at, wherever it falls: both give back the text.
    @Test func writtenStringsReadBackAcrossWordBoundaries() throws {
        for place in 0..<20 {
            for special in ["\"", "\\", "\n", "\u{01}", "é", "\u{1F600}"] {
                var text = String(repeating: "x", count: 20)
                text.insert(contentsOf: special, at: text.index(text.startIndex, offsetBy: place))
                var out: [UInt8] = []
                JSONWriter.appendString(text, to: &out)
                #expect(try JSONDecoder().decode(String.self, from: Data(out)) == text)
                let read = out.withUnsafeBufferPointer { buffer -> String? in
                    var scanner = JSONScanner(bytes: buffer)
                    return scanner.string()
                }
                #expect(read == text)
            }
        }
    }
}
