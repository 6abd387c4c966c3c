@testable import parley
import Testing
import ParleyProtocol

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

@Suite("parley chat: /mute for the chat or for a member")
struct ChatMemberMuteTests {
    @Test("a name and minutes, or /unmute with a name, is a member's mute whatever the chat's kind, known or not")
    @MainActor func namesWithMinutesAreMemberMutes() {
        for kind in [nil, ConversationKind.user, .group, .room] {
            #expect(ChatApp.isMemberMute(["/mute", "bob", "5"], in: kind))
            #expect(ChatApp.isMemberMute(["/unmute", "bob"], in: kind))
            #expect(!ChatApp.isMemberMute(["/mute"], in: kind))
            #expect(!ChatApp.isMemberMute(["/unmute"], in: kind))
            #expect(!ChatApp.isMemberMute(["/mute", "8h"], in: kind))
            #expect(!ChatApp.isMemberMute(["/mute", "forever"], in: kind))
        }
    }

    @Test("a lone word that is no span names a member only in a group or room")
    @MainActor func aLoneWordNamesAMemberOnlyInAGroup() {
        #expect(ChatApp.isMemberMute(["/mute", "bob"], in: .group))
        #expect(ChatApp.isMemberMute(["/mute", "bob"], in: .room))
        #expect(!ChatApp.isMemberMute(["/mute", "soon"], in: .user))
        #expect(!ChatApp.isMemberMute(["/mute", "soon"], in: nil))
    }
}
