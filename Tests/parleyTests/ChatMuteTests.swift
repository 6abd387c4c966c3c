@testable import parley
import Testing

@Suite("parley chat: /mute lengths")
struct ChatMuteTests {
    @Test("minutes, hours, days and weeks in ms; forever is no end; anything else is refused")
    @MainActor func spans() {
        #expect(ChatApp.muteSpan("30m") == .some(30 * 60_000))
        #expect(ChatApp.muteSpan("8h") == .some(8 * 3_600_000))
        #expect(ChatApp.muteSpan("2d") == .some(2 * 86_400_000))
        #expect(ChatApp.muteSpan("1w") == .some(7 * 86_400_000))
        #expect(ChatApp.muteSpan("forever") == .some(nil))
        for bad in ["", "h", "0h", "-1h", "8x", "soon", "99999h"] {
            #expect(ChatApp.muteSpan(bad) == nil, "\(bad)")
        }
    }
}
