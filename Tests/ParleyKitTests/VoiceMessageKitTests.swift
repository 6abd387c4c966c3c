import Foundation
import ParleyKit
import ParleyProtocol
import TestSupport
import Testing

/// Voice messages through ParleyKit against a real server: a recording sent from a file on
/// disk, the other side's dialogue showing its length and unplayed state, and the sender's
/// showing the play.
@Suite("Voice messages through ParleyKit", .serialized)
@MainActor
struct VoiceMessageKitTests {
    private func bubbles(_ dialogue: DialogueViewModel) -> [DialogueItem.Bubble] {
        dialogue.items.compactMap { if case .message(let bubble) = $0 { bubble } else { nil } }
    }

    @Test("a recording from disk arrives as a voice bubble; a play marks it listened for the sender")
    func sendPlayAndListened() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let alice = try KitHarness.client(server)
        let bob = try KitHarness.client(server)
        let conversation = try await KitHarness.friends(alice, KitHarness.username("alice"), bob, KitHarness.username("bob"))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("voice-\(UUID().uuidString).webm")
        try Data(VoiceRecordings.webm(milliseconds: 12_000)).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let waveform = (0..<64).map { $0 % 32 }
        let sent = try await alice.sendVoice(fileAt: file, durationMs: 12_200, waveform: waveform, to: conversation)
        #expect(sent.kind == .voice && sent.voice?.durationMs == 12_200 && sent.voice?.type == "audio/webm")

        let aliceDialogue = DialogueViewModel(client: alice, conversation: conversation, language: .english)
        await aliceDialogue.open()
        let bobDialogue = DialogueViewModel(client: bob, conversation: conversation, language: .chinese)
        await bobDialogue.open()
        try await KitHarness.eventually("the voice bubble") {
            await MainActor.run { self.bubbles(bobDialogue).last?.voice?.waveform == waveform }
        }
        let heard = try #require(bubbles(bobDialogue).last)
        #expect(heard.text == "[语音 0:12]" && !heard.isListened && heard.listenedCount == 0)
        #expect(bubbles(aliceDialogue).last?.text == "[voice 0:12]" && bubbles(aliceDialogue).last?.isListened == true)

        let message = try #require(bobDialogue.message(seq: heard.seq))
        let marked = try await bob.markListened(message)
        let bobID = try #require(await bob.account?.profile.id)
        #expect(marked.listenedBy == [bobID])
        try await KitHarness.eventually("bob's own bubble played") { await MainActor.run { self.bubbles(bobDialogue).last?.isListened == true } }
        try await KitHarness.eventually("alice sees it listened") { await MainActor.run { self.bubbles(aliceDialogue).last?.listenedCount == 1 } }
        aliceDialogue.close()
        bobDialogue.close()
        await alice.stop()
        await bob.stop()
    }
}
