import Testing
@testable import ParleyNet

@Suite struct PercentDecodingTests {
    @Test func decodesEscapesInEitherCase() {
        #expect(PercentDecoding.decodePathSegment("a%20b") == "a b")
        #expect(PercentDecoding.decodePathSegment("%e2%82%ac%E2%82%AC") == "€€")
        #expect(PercentDecoding.decodePathSegment("plain") == "plain")
        #expect(PercentDecoding.decodePathSegment("") == "")
        #expect(PercentDecoding.decodePathSegment("%2e%2E") == "..")
        #expect(PercentDecoding.decodePathSegment("a%2Fb") == "a/b")
        #expect(PercentDecoding.decodePathSegment("100%25") == "100%")
    }

    @Test func plusIsASpaceOnlyInQueries() {
        #expect(PercentDecoding.decodePathSegment("a+b") == "a+b")
        #expect(PercentDecoding.decodeQueryComponent("a+b%2B") == "a b+")
    }

    @Test(arguments: ["%", "%4", "%zz", "%4g", "a%", "ab%2", "%%41", "%00", "a%00b", "\u{0}", "%C3", "%FF", "%C3%28"])
    func malformedEscapesNULAndBadUTF8AreRefused(_ text: String) {
        #expect(PercentDecoding.decodePathSegment(text) == nil)
        #expect(PercentDecoding.decodeQueryComponent(text) == nil)
    }

    @Test func parsesQueries() {
        let pairs = PercentDecoding.parseQuery("q=hello+world&tag=a%26b&tag=c&flag&&empty=&=v")
        #expect(pairs?.map(\.name) == ["q", "tag", "tag", "flag", "empty", ""])
        #expect(pairs?.map(\.value) == ["hello world", "a&b", "c", "", "", "v"])
        #expect(PercentDecoding.parseQuery("")?.isEmpty == true)
        #expect(PercentDecoding.parseQuery("a=1=2")?.first?.value == "1=2")
        #expect(PercentDecoding.parseQuery("a=%zz") == nil)
        #expect(PercentDecoding.parseQuery("a=%00") == nil)
    }
}
