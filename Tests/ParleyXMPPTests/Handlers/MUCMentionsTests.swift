import ParleyCore
import ParleyProtocol
import Testing
@testable import ParleyXMPP

/// Mentions between Jabber occupants and Parley groups: `@nick` words and references in,
/// references with character positions out.
@Suite struct MUCMentionsTests {
    @Test func atWordsAreNamesWithoutTrailingPunctuation() {
        #expect(MUCMentions.atNames(in: "hi @bob, and @ann_2! mail a@b and @ alone; @~12.") == ["bob", "ann_2", "~12"])
        #expect(MUCMentions.atNames(in: "no names here").isEmpty)
    }

    @Test func referencesNameTheOccupantAndWhereTheTextSaysSo() throws {
        let room = try #require(JID("group-5@conference.chat.test"))
        var message = Message(id: "9", conversationId: ConversationID(rawValue: 5), seq: 3, sender: UserID(rawValue: 1), clientId: "c",
                              kind: .text, text: "茶? @mei and @bob", createdAt: 1)
        message.mentions = [UserID(rawValue: 2), UserID(rawValue: 3), UserID(rawValue: 4)]
        let names = [UserID(rawValue: 2): "mei", UserID(rawValue: 3): "bob", UserID(rawValue: 4): "ann"]
        let references = MUCMentions.references(for: message, room: room, nick: { names[$0] ?? "?" })
        #expect(references.map { $0["uri"] } == ["xmpp:group-5@conference.chat.test/mei", "xmpp:group-5@conference.chat.test/bob",
                                                  "xmpp:group-5@conference.chat.test/ann"])
        #expect(references.map { $0["type"] } == ["mention", "mention", "mention"])
        // Characters, not bytes: "茶" is one.
        #expect(references.map { $0["begin"] } == ["3", "12", nil])
        #expect(references.map { $0["end"] } == ["7", "16", nil])
        message.mentions = nil
        #expect(MUCMentions.references(for: message, room: room, nick: { _ in "x" }).isEmpty)
    }
}
