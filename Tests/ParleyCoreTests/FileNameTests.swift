import Testing
import ParleyCore

@Suite struct FileNameTests {
    @Test(arguments: [
        ("report.pdf", "report.pdf"),
        ("../../etc/passwd", "_.._etc_passwd"),
        ("a\\b/c", "a_b_c"),
        ("say \"hi\".txt", "say _hi_.txt"),
        ("it's.txt", "it_s.txt"),
        ("line\nbreak\u{0}.txt", "linebreak.txt"),
        ("evil\u{202E}fdp.exe", "evilfdp.exe"),
        ("\u{200F}\u{2066}x\u{2069}\u{061C}.doc", "x.doc"),
        ("  .hidden  ", "hidden"),
        ("", "file"),
        ("\u{202E}\u{202C}", "file"),
        ("报告 2026.docx", "报告 2026.docx"),
    ])
    func sanitises(name: String, expected: String) {
        #expect(FileName.sanitized(name) == expected)
    }

    @Test func longNamesAreCutAtACharacterBoundary() {
        let name = String(repeating: "文", count: 100)  // 300 bytes
        let clean = FileName.sanitized(name)
        #expect(clean.utf8.count <= FileName.maxBytes)
        #expect(clean == String(repeating: "文", count: 85))
    }

    @Test func contentDispositionHasAnASCIINameAndTheExactOne() {
        #expect(FileName.contentDisposition("attachment", name: "résumé \"v2\".pdf")
                == "attachment; filename=\"r_sum_ _v2_.pdf\"; filename*=UTF-8''r%C3%A9sum%C3%A9%20_v2_.pdf")
        #expect(FileName.contentDisposition("inline", name: "a/b\u{202E}.png") == "inline; filename=\"a_b.png\"; filename*=UTF-8''a_b.png")
    }
}
