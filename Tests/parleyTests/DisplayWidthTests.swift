@testable import parley
import Testing

@Suite("parley chat: display width, wrapping, keys, line editing")
struct DisplayWidthTests {
    @Test("CJK and emoji take two columns, combining marks none, ASCII one")
    func widths() {
        #expect(DisplayWidth.width(of: "hello") == 5)
        #expect(DisplayWidth.width(of: "你好") == 4)
        #expect(DisplayWidth.width(of: "한국어") == 6)
        #expect(DisplayWidth.width(of: "ｆｕｌｌ") == 8)
        #expect(DisplayWidth.width(of: "🙂👍") == 4)
        #expect(DisplayWidth.width(of: "e\u{301}") == 1)
        #expect(DisplayWidth.width(of: "👨‍👩‍👧") == 2)
        #expect(DisplayWidth.width(of: "\u{1B}[31m") == 4)
        #expect(DisplayWidth.isControl("\u{1B}"))
    }

    @Test("emoji sequences take the columns a scalar-measuring terminal (tmux, xterm) gives them")
    func emojiSequences() {
        #expect(DisplayWidth.width(of: "🧑‍💻") == 2)          // ZWJ: one picture
        #expect(DisplayWidth.width(of: "🤷‍♀️") == 2)          // ZWJ then a narrow sign and VS16
        #expect(DisplayWidth.width(of: "🏳️‍🌈") == 1)          // a narrow base keeps its column
        #expect(DisplayWidth.width(of: "❤️") == 1)            // VS16 adds nothing
        #expect(DisplayWidth.width(of: "☕️") == 2)
        #expect(DisplayWidth.width(of: "👍🏽") == 4)            // the skin tone is drawn beside it
        #expect(DisplayWidth.width(of: "👩🏽‍💻") == 4)
        #expect(DisplayWidth.width(of: "🇨🇳") == 2)            // two regional indicators
        #expect(DisplayWidth.width(of: "#️⃣") == 1)
        #expect(DisplayWidth.width(of: "कि") == 2)            // a spacing mark takes a column
        #expect(DisplayWidth.fit("ok 👍🏽 🇨🇳", to: 12).count == 8)
    }

    @Test("truncating and fitting count columns, not characters")
    func truncation() {
        #expect(DisplayWidth.truncate("你好世界", to: 5) == "你好…")
        #expect(DisplayWidth.fit("你好", to: 6) == "你好  ")
        #expect(DisplayWidth.width(of: DisplayWidth.fit("中文abc中文", to: 7)) == 7)
    }

    @Test("wrapping breaks words at spaces and CJK anywhere")
    func wrapping() {
        #expect(DisplayWidth.wrap("the quick brown fox", to: 10) == ["the quick", "brown fox"])
        #expect(DisplayWidth.wrap("一二三四五六", to: 5) == ["一二", "三四", "五六"])
        #expect(DisplayWidth.wrap("abcdefghij", to: 4) == ["abcd", "efgh", "ij"])
        #expect(DisplayWidth.wrap("one\ntwo", to: 10) == ["one", "two"])
        #expect(DisplayWidth.wrap("hi 你好 there", to: 6) == ["hi 你", "好", "there"])
    }

    @Test("raw-mode bytes decode into keys, with UTF-8 split across reads kept")
    func keys() {
        let (keys, rest) = KeyReader.decode(Array("a\u{1B}[A\u{1B}[5~\r\t\u{7F}\u{03}".utf8))
        #expect(keys == [.character("a"), .up, .pageUp, .enter, .tab, .backspace, .ctrl("c")])
        #expect(rest.isEmpty)
        let bytes = Array("你".utf8)
        let first = KeyReader.decode(Array(bytes.prefix(2)))
        #expect(first.keys.isEmpty && first.rest.count == 2)
        #expect(KeyReader.decode(first.rest + bytes.suffix(1)).keys == [.character("你")])
        #expect(KeyReader.decode([0x1B]).keys == [.escape])
    }

    @Test("the line editor moves by characters and scrolls by columns")
    func editor() {
        var editor = LineEditor("你好")
        _ = editor.handle(.left)
        _ = editor.handle(.character("a"))
        #expect(editor.text == "你a好")
        _ = editor.handle(.ctrl("a"))
        _ = editor.handle(.delete)
        #expect(editor.text == "a好")
        let long = LineEditor(String(repeating: "字", count: 20))
        let shown = long.visible(in: 10)
        #expect(DisplayWidth.width(of: shown.text) <= 10)
        #expect(shown.cursorColumn <= 9)
        #expect(LineEditor("secret", secret: true).visible(in: 20).text == "••••••")
    }
}
