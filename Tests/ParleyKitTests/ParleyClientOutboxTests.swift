import Foundation
import ParleyKit
import ParleyProtocol
import TestSupport
import Testing

/// Sending and waiting for the server's acknowledgement (ParleyClient+Outbox.swift) against a
/// real server: an image comes back as the stored message, a refused one fails with the
/// server's error and stays in the outbox as failed.
@Suite("ParleyClient's sends that wait for the server", .serialized)
struct ParleyClientOutboxTests {
    @Test("an image's send waits for the stored message; a media id the server refuses fails with its error")
    func imageSendAndWait() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let alice = try KitHarness.client(server), bob = try KitHarness.client(server)
        let conversation = try await KitHarness.friends(alice, KitHarness.username("alice"), bob, KitHarness.username("bob"))
        let media = try await alice.uploadImage(FileSendingKitTests.png(width: 4, height: 3))

        let stored = try await alice.sendAndWait(imageMediaId: media.id, to: conversation, timeout: .seconds(10))
        #expect(stored.kind == .image && stored.seq > 0 && stored.image?.width == 4 && stored.image?.height == 3)
        #expect(try await alice.outbox(in: conversation).isEmpty, "acknowledged, so gone from the outbox")
        let page = try await bob.call(Op.MessageHistory.self, HistoryParameters(conversationId: conversation))
        #expect(page.messages.contains { $0.id == stored.id && $0.kind == .image })

        // Bob's upload is not alice's to send.
        let bobs = try await bob.uploadImage(FileSendingKitTests.png(width: 2, height: 2))
        var refusal: ParleyError?
        do {
            try await alice.sendAndWait(imageMediaId: bobs.id, to: conversation, timeout: .seconds(10))
        } catch {
            refusal = error
        }
        guard case .server(let problem)? = refusal else {
            Issue.record("expected the server's refusal, got \(String(describing: refusal))")
            return
        }
        #expect(!problem.message.isEmpty)
        let failed = try await alice.outbox(in: conversation)
        #expect(failed.count == 1 && failed.first?.mediaId == bobs.id)
        #expect(failed.first?.state == .failed(problem), "kept as failed with the server's error")
        await alice.stop()
        await bob.stop()
    }

    @Test("with the server gone the wait ends without an answer; the image stays queued and goes out after the restart")
    func imageQueuedWhileOffline() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let alice = try KitHarness.client(server), bob = try KitHarness.client(server)
        let conversation = try await KitHarness.friends(alice, KitHarness.username("alice"), bob, KitHarness.username("bob"))
        let media = try await alice.uploadImage(FileSendingKitTests.png(width: 5, height: 5))
        server.halt()
        try await KitHarness.eventually("alice sees the connection go") { !alice.connectionState.isOnline }

        var unanswered: ParleyError?
        do {
            try await alice.sendAndWait(imageMediaId: media.id, to: conversation, timeout: .milliseconds(300))
        } catch {
            unanswered = error
        }
        #expect(unanswered?.isTransient == true, "a wait that ran out, not a refusal: \(String(describing: unanswered))")
        #expect(try await alice.outbox(in: conversation).map(\.state) == [.pending])

        try server.start()
        try await KitHarness.eventually("the queued image goes out", timeout: .seconds(30)) { try await alice.outbox(in: conversation).isEmpty }
        let page = try await bob.call(Op.MessageHistory.self, HistoryParameters(conversationId: conversation))
        #expect(page.messages.filter { $0.kind == .image }.count == 1)
        await alice.stop()
        await bob.stop()
    }
}
