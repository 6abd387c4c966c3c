import Foundation
import ParleyKit
import ParleyProtocol
import Testing

@Suite("Dialogue ticks and typing against a real server", .serialized)
@MainActor
struct DialogueReceiptsTests {
    @Test("own bubbles go sent → delivered → read; the typing line comes and goes; privacy settings round trip")
    func ticksAndTyping() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let alice = try KitHarness.client(server)
        let bob = try KitHarness.client(server)
        let bobName = KitHarness.username("bob")
        let conversation = try await KitHarness.friends(alice, KitHarness.username("alice"), bob, bobName)
        try await KitHarness.eventually("both online") { alice.connectionState.isOnline && bob.connectionState.isOnline }

        let dialogue = DialogueViewModel(client: alice, conversation: conversation, language: .english)
        await dialogue.open()
        let sent = try await alice.sendAndWait(text: "tick", to: conversation)
        // Bob is online: delivered without him doing anything.
        try await KitHarness.eventually("delivered") { await MainActor.run { dialogue.deliveryState(of: sent) == .delivered } }
        _ = try await bob.markRead(conversation, upTo: sent.seq)
        try await KitHarness.eventually("read") { await MainActor.run { dialogue.deliveryState(of: sent) == .read } }
        // The cached summary keeps the marker for a later dialogue.
        #expect(try await alice.cachedConversation(conversation)?.peerReadSeq == sent.seq)

        try await bob.startTyping(in: conversation)
        try await KitHarness.eventually("typing line") { await MainActor.run { dialogue.typingLine?.hasSuffix("is typing…") == true } }
        #expect(dialogue.typingLine?.contains(bobName) == true)
        try await bob.stopTyping(in: conversation)
        try await KitHarness.eventually("typing line gone") { await MainActor.run { dialogue.typingLine == nil } }

        // Bob turns read receipts off: alice's next message stays delivered after he reads it.
        let chosen = PrivacySettings(readReceipts: false, typing: true, lastSeen: .friends)
        #expect(try await bob.setPrivacy(chosen) == chosen)
        #expect(try await bob.privacy() == chosen)
        let second = try await alice.sendAndWait(text: "tock", to: conversation)
        try await KitHarness.eventually("second delivered") { await MainActor.run { dialogue.deliveryState(of: second) == .delivered } }
        _ = try await bob.markRead(conversation, upTo: second.seq)
        try await Task.sleep(for: .milliseconds(300))
        #expect(dialogue.deliveryState(of: second) == .delivered)
        dialogue.close()
        await alice.stop()
        await bob.stop()
    }

    @Test("the typing line names one, two, or one and a count")
    func typingLines() {
        var receipts = DialogueReceipts()
        let names: [UserID: String] = [UserID(1): "Alice", UserID(2): "Bob", UserID(3): "Cy"]
        let name = { (id: UserID) in names[id] ?? "?" }
        #expect(receipts.typingLine(language: .english, name: name) == nil)
        for id in [1, 2, 3] {
            _ = receipts.apply(TypingNotice(conversationId: ConversationID(9), userId: UserID(Int64(id)), typing: true))
        }
        #expect(receipts.typingLine(language: .english, name: name) == "Alice and 2 others are typing…")
        #expect(receipts.typingLine(language: .chinese, name: name) == "Alice 等 3 人正在输入…")
        _ = receipts.apply(TypingNotice(conversationId: ConversationID(9), userId: UserID(3), typing: false))
        #expect(receipts.typingLine(language: .english, name: name) == "Alice and Bob are typing…")
        _ = receipts.apply(TypingNotice(conversationId: ConversationID(9), userId: UserID(1), typing: false))
        #expect(receipts.typingLine(language: .english, name: name) == "Bob is typing…")
    }
}
