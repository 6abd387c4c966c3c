import ParleyCore
import Testing

/// Which words of a query a store may require by their code points (`literalTerms`), beside
/// those its trigram index takes (`indexedTerms`).
@Suite struct SearchTextTests {
    @Test func onlyShortWordsOfUnifiedHanIdeographsAreLiterals() {
        let text = SearchText(query: "北京 中 hello 中文字 ok é 한국 \u{F900} 𠀀 あ 北a")
        #expect(text.literalTerms == ["北京", "中", "𠀀"])
        #expect(text.indexedTerms == ["hello", "中文字"])
    }

    /// The store leaves out rows without a literal's code points (`instr`, `strpos`): never a
    /// text that `matches` finds. (It may keep one that `matches` does not, such as the word
    /// followed by a combining mark; `SearchText` has the final say.)
    @Test func everyTextThatMatchesHoldsTheLiteralsCodePoints() {
        let text = SearchText(query: "hello 北京")
        let literal = Array(text.literalTerms[0].utf8)
        for body in ["去北京吧 hello", "HELLO 北京", "hello 南京", "hello 北 京", "hello 北京\u{301}", "hello \u{2F8A6}"] {
            let bytes = Array(body.utf8)
            let holds = bytes.count >= literal.count && (0...(bytes.count - literal.count)).contains { Array(bytes[$0..<($0 + literal.count)]) == literal }
            #expect(!text.matches(body) || holds, "\(body)")
        }
        #expect(text.matches("HELLO 北京") && !text.matches("hello 北 京") && !text.matches("hello 北京\u{301}"))
    }
}
