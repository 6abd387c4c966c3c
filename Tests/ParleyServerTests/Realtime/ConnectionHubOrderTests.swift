import Foundation
import Testing
@testable import ParleyServer

/// Events a loop delivers reach each connection in the order they were delivered, whether
/// they went to one connection or to many.
@Suite struct ConnectionHubOrderTests {
    /// A room's notice of a kick goes to every occupant, then the kick to the one put out
    /// (RoomService+Moderation: "the notice first reaches everyone"), here with every
    /// connection on one loop. The hub hands an event to the connections of the loop it runs
    /// on at once whether it goes to one connection or to many (before, one to many waited
    /// for a queued closure while one to one went out at once: a later event to one could
    /// pass an earlier one to many when both were delivered from the loop).
    @Test func anEventToManyThenOneToOneOfThemArriveInThatOrder() async throws {
        let server = try TestServer { $0.loops = 1 }
        defer { server.stop() }
        let creator = try await Chatter("founder", on: server)
        let noisy = try await Chatter("noisy", on: server)
        let room = try unwrap(((try await creator.call("room.create", ["name": "Lobby"]))["room"] as? [String: Any])?["id"] as? String)
        try await noisy.call("room.enter", ["name": "Lobby"])
        try await creator.call("room.kick", ["conversationId": room, "userId": noisy.id])
        // Frames are kept in the order they arrived: what is there once the kick is came before it.
        var frames: [[String: Any]] = []
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            frames = noisy.socket.pending
            if frames.contains(where: { $0["event"] as? String == "room.kicked" }) { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        let kick = frames.firstIndex { $0["event"] as? String == "room.kicked" }
        let notice = frames.firstIndex { frame in
            frame["event"] as? String == "message.new"
                && ((frame["data"] as? [String: Any])?["system"] as? [String: Any])?["type"] as? String == "member_removed"
        }
        #expect(kick != nil, "no kick: \(frames)")
        #expect(notice != nil && kick != nil && notice! < kick!, "the notice did not come before the kick: \(frames)")
    }
}
