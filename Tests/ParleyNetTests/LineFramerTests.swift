import Testing
@testable import ParleyNet

/// The admin socket's line framing alone: lines across reads, the limit exactly, and a line
/// one byte over refused whether its newline came or not.
@Suite struct LineFramerTests {
    private func feed(_ framer: inout LineFramer, _ text: String) -> [LineFramer.Piece] {
        framer.feed(ArraySlice(Array(text.utf8)))
    }

    @Test func linesAreCutAtNewlinesAcrossReads() {
        var framer = LineFramer(maxLineBytes: 8)
        #expect(feed(&framer, "ab").isEmpty)
        #expect(feed(&framer, "c\nde\n\nf") == [.line("abc"), .line("de"), .line("")])
        #expect(feed(&framer, "g\n") == [.line("fg")])
        #expect(!framer.overflowed)
    }

    @Test func aLineOfExactlyTheLimitPassesOneByteMoreIsRefused() {
        var framer = LineFramer(maxLineBytes: 4)
        #expect(feed(&framer, "abcd\n") == [.line("abcd")])
        // Over the limit with its newline in the same read: refused, not answered.
        #expect(feed(&framer, "ok\nabcde\nlater\n") == [.line("ok"), .tooLong])
        #expect(framer.overflowed && feed(&framer, "more\n").isEmpty)
    }

    @Test func aLineWithoutNewlineIsRefusedAsSoonAsItPassesTheLimit() {
        var framer = LineFramer(maxLineBytes: 4)
        #expect(feed(&framer, "abc").isEmpty)
        // The next read may take two bytes only: one to reach the limit, one to pass it.
        #expect(framer.readBudget(chunk: 4096) == 2)
        #expect(feed(&framer, "de") == [.tooLong])
    }

    @Test func theReadBudgetNeverLetsALineGrowPastItsLimitByMoreThanOneByte() {
        var framer = LineFramer(maxLineBytes: 10)
        #expect(framer.readBudget(chunk: 4096) == 11)
        #expect(framer.readBudget(chunk: 3) == 3)
        _ = feed(&framer, "0123456789")
        #expect(framer.readBudget(chunk: 4096) == 1)
        #expect(feed(&framer, "\n") == [.line("0123456789")])
        #expect(framer.readBudget(chunk: 4096) == 11)
    }
}
