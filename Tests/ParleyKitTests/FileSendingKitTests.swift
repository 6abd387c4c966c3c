import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ParleyKit
import ParleyProtocol
import ParleySync
import Testing

/// Files from disk through ParleyKit against a real server: read a piece at a time, sent
/// through a resumable upload (also across a restart of the server), and shown in the
/// other side's dialogue with name, size and type.
@Suite("Files through ParleyKit", .serialized)
@MainActor
struct FileSendingKitTests {
    /// A file of `count` bytes that differ along it, so a misplaced piece shows.
    static func writeFile(_ count: Int, name: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parleykit-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var state: UInt32 = 11
        var left = count
        while left > 0 {
            let piece = min(left, 1 << 20)
            try handle.write(contentsOf: Data((0..<piece).map { _ in
                state = state &* 1_664_525 &+ 1_013_904_223
                return UInt8(truncatingIfNeeded: state >> 24)
            }))
            left -= piece
        }
        return url
    }

    private func bubbles(_ dialogue: DialogueViewModel) -> [DialogueItem.Bubble] {
        dialogue.items.compactMap { if case .message(let bubble) = $0 { bubble } else { nil } }
    }

    @Test("a 20 MiB file from disk arrives byte-identical and shows as a file bubble")
    func twentyMebibytes() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let alice = try KitHarness.client(server)
        let bob = try KitHarness.client(server)
        let conversation = try await KitHarness.friends(alice, KitHarness.username("alice"), bob, KitHarness.username("bob"))
        let file = try Self.writeFile(20 << 20, name: "report 2026.pdf")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }

        let seen = PThreadMutex<[Int]>([])
        let sent = try await alice.sendFile(at: file, to: conversation, caption: "the numbers", pieceBytes: 4 << 20) { done, total in
            #expect(total == 20 << 20)
            seen.withLock { $0.append(done) }
        }
        #expect(seen.withLock { $0 } == [0, 4 << 20, 8 << 20, 12 << 20, 16 << 20, 20 << 20])
        #expect(sent.kind == .file && sent.text == "the numbers")
        let attachment = try #require(sent.file)
        #expect(attachment.name == "report 2026.pdf" && attachment.size == 20 << 20 && attachment.type == "application/octet-stream")
        #expect(try await alice.downloadMedia(attachment.url) == (try Data(contentsOf: file)))

        let dialogue = DialogueViewModel(client: bob, conversation: conversation, language: .english)
        await dialogue.open()
        try await KitHarness.eventually("the file bubble") { await MainActor.run { self.bubbles(dialogue).last?.file != nil } }
        let bubble = try #require(bubbles(dialogue).last)
        #expect(bubble.file?.name == "report 2026.pdf" && bubble.file?.size == 20 << 20)
        #expect(bubble.text == "[file report 2026.pdf 20 MB] the numbers")
        dialogue.close()
        await alice.stop()
        await bob.stop()
    }

    @Test("an upload cut by a server restart goes on from where the server stands")
    func resumesAcrossARestart() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let alice = try KitHarness.client(server)
        try await alice.register(username: KitHarness.username("alice"), password: "password123")
        let file = try Self.writeFile(3 << 20, name: "photo.raw")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }

        let restarted = PThreadMutex(false)
        let progress = PThreadMutex<[Int]>([])
        let media = try await alice.uploadFile(at: file, pieceBytes: 1 << 20, attempts: 10) { done, _ in
            progress.withLock { $0.append(done) }
            // After the first piece the server goes away and comes back a little later.
            guard done == 1 << 20, !restarted.withLock({ $0 }) else { return }
            restarted.withLock { $0 = true }
            server.halt()
            Task.detached {
                try? await Task.sleep(for: .milliseconds(400))
                try? server.start()
            }
        }
        #expect(restarted.withLock { $0 })
        // No piece was counted twice: the server kept the first one across the restart.
        #expect(progress.withLock { $0 } == [0, 1 << 20, 2 << 20, 3 << 20])
        #expect(media.size == 3 << 20)
        #expect(try await alice.downloadMedia(media.url) == (try Data(contentsOf: file)))
        await alice.stop()
    }

    @Test("a PNG from disk goes out as an image message")
    func aPictureIsAnImage() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let alice = try KitHarness.client(server)
        let bob = try KitHarness.client(server)
        let conversation = try await KitHarness.friends(alice, KitHarness.username("alice"), bob, KitHarness.username("bob"))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parleykit-png-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("dot.png")
        try Self.png(width: 3, height: 2).write(to: file)
        let sent = try await alice.sendFile(at: file, to: conversation)
        #expect(sent.kind == .image && sent.image?.width == 3 && sent.image?.height == 2)
        await alice.stop()
        await bob.stop()
    }

    /// A minimal PNG: the signature and an IHDR chunk, which is what the sniffer reads.
    static func png(width: Int, height: Int) -> Data {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]
        for value in [width, height] {
            bytes += [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        }
        bytes += [8, 6, 0, 0, 0] + [UInt8](repeating: 0, count: 40)
        return Data(bytes)
    }
}
