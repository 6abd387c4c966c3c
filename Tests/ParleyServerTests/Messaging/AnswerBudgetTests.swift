import Foundation
import Testing
@testable import ParleyServer

/// A `sync` answer or history page never passes half of `--max-queued-bytes`, so a client that
/// missed a lot is not cut off as a slow peer on every reconnect; what did not fit comes with
/// history paging.
@Suite(.serialized) struct AnswerBudgetTests {
    @Test func aLongAbsenceSyncsWithinTheQueueBoundAndPagesTheRest() async throws {
        // 64 KiB queue bound: answers stay under 32 KiB.
        let server = try TestServer { $0.maxQueuedBytesPerConnection = 64 * 1024 }
        defer { server.stop() }
        let amy = try await Chatter("amy", on: server)
        let ben = try await Chatter("ben", on: server)
        let conversation = try await amy.befriend(ben)
        let seen = try unwrap((try await ben.call("message.history", ["conversationId": conversation, "limit": 1])["messages"]
                               as? [[String: Any]])?.last?["seq"] as? Int)
        try await ben.disconnect()

        // Each message is about 6 KB on the wire (quotes and slashes are escaped): 30 of them
        // would be three times the queue bound in one answer.
        let text = String(repeating: "\"a/b\" ", count: 500)
        var sentSeqs: [Int] = []
        for _ in 1...30 { sentSeqs.append(try unwrap(try await amy.send(conversation, text)["seq"] as? Int)) }

        try await ben.reconnect()
        let sync = try await ben.call("sync", ["since": [conversation: seen]])
        let synced = try unwrap(sync["messages"] as? [[String: Any]]).filter { $0["conversationId"] as? String == conversation }
        let syncedSeqs = synced.compactMap { $0["seq"] as? Int }
        #expect(!syncedSeqs.isEmpty && syncedSeqs.count < 30)
        #expect(syncedSeqs == Array(sentSeqs.suffix(syncedSeqs.count)), "the newest, in order")
        #expect((sync["truncated"] as? [String])?.contains(conversation) == true)
        let bytes = try JSONSerialization.data(withJSONObject: sync).count
        #expect(bytes <= 32 * 1024)

        // Still connected, and history pages fill the rest, each within the budget.
        var collected = syncedSeqs
        while let oldest = collected.first, oldest > seen + 1 {
            let page = try await ben.call("message.history", ["conversationId": conversation, "before": oldest, "limit": 100])
            let messages = try unwrap(page["messages"] as? [[String: Any]])
            #expect(!messages.isEmpty)
            #expect(try JSONSerialization.data(withJSONObject: page).count <= 32 * 1024)
            collected = messages.compactMap { $0["seq"] as? Int } + collected
        }
        #expect(Array(collected.suffix(30)) == sentSeqs)
        #expect(collected == Array(collected.first!...collected.last!), "gapless")
    }
}
