import Foundation
import ParleyKit
import ParleyProtocol
import Testing

/// A room's creator and admins moderate it through ParleyKit's calls, against a real server:
/// the creator appoints an admin, the admin kicks and bans, the banned user is refused at the
/// door and let back by an unban, and the role taken away takes the power with it.
@Suite("Room moderation through ParleyKit", .serialized)
struct RoomModerationKitTests {
    private func code(_ call: () async throws(ParleyError) -> Void) async -> ErrorCode? {
        do throws(ParleyError) {
            try await call()
            return nil
        } catch {
            return error.code
        }
    }

    @Test("the creator appoints an admin, who kicks and bans; the ban holds at the door until lifted")
    func creatorAdminKickBanUnban() async throws {
        let server = try TestServer()
        defer { server.stop() }
        var clients: [ParleyClient] = []
        var registered: [UserID] = []
        for base in ["creator", "admin", "guest"] {
            let client = try KitHarness.client(server)
            try await client.register(username: KitHarness.username(base), password: "password123")
            clients.append(client)
            if let id = await client.account?.profile.id { registered.append(id) }
        }
        try #require(registered.count == 3)
        let ids = registered
        let (creator, admin, guest) = (clients[0], clients[1], clients[2])
        let guestEvents = EventRecorder(guest)
        let roomName = "Hall \(UUID().uuidString.prefix(4))"
        let room = try await creator.createRoom(name: roomName).room
        // The room says who created it, for clients to show the creator's powers.
        #expect(room.ownerId == ids[0])
        #expect(try await admin.enterRoom(name: roomName).room.ownerId == ids[0])
        _ = try await guest.enterRoom(name: roomName)

        // Only the creator appoints; anyone in the room reads the admins.
        #expect(await code { () throws(ParleyError) in try await admin.makeRoomAdmin(ids[2], in: room.id) } == .notOwner)
        try await creator.makeRoomAdmin(ids[1], in: room.id)
        #expect(try await guest.roomAdmins(room.id).map(\.id) == [ids[1]])
        #expect(await code { () throws(ParleyError) in try await guest.kick(ids[1], from: room.id) } == .notAdmin)
        #expect(await code { () throws(ParleyError) in _ = try await guest.roomBans(room.id) } == .notAdmin)

        // The admin kicks the guest: out, told so, and the room leaves the guest's cache.
        try await admin.kick(ids[2], from: room.id)
        try await KitHarness.eventually("the guest hears the kick") {
            guestEvents.all.contains { if case .roomKicked(let kick) = $0 { return !kick.banned && kick.actor == ids[1] } else { return false } }
        }
        try await KitHarness.eventually("the room to leave the guest's cache") { try await guest.cachedRooms().isEmpty }
        #expect(try await creator.roomOccupants(room.id).map(\.id).sorted() == [ids[0], ids[1]].sorted())

        // A kick is no ban: the guest comes back; then the admin bans, with a reason.
        _ = try await guest.enterRoom(name: roomName)
        try await admin.kick(ids[2], from: room.id, ban: true, reason: "spam")
        try await KitHarness.eventually("the guest hears the ban") {
            guestEvents.all.contains { if case .roomKicked(let kick) = $0 { return kick.banned && kick.reason == "spam" } else { return false } }
        }
        #expect(await code { () throws(ParleyError) in _ = try await guest.enterRoom(name: roomName) } == .banned)
        let bans = try await admin.roomBans(room.id)
        #expect(bans.map(\.user.id) == [ids[2]] && bans.first?.bannedBy == ids[1] && bans.first?.reason == "spam")
        // A banned user cannot be made an admin either.
        #expect(await code { () throws(ParleyError) in try await creator.makeRoomAdmin(ids[2], in: room.id) } == .banned)

        // Unbanned, the guest enters again.
        try await admin.unbanFromRoom(ids[2], room: room.id)
        #expect(try await creator.roomBans(room.id).isEmpty)
        #expect(await code { () throws(ParleyError) in try await admin.unbanFromRoom(ids[2], room: room.id) } == .notFound)
        _ = try await guest.enterRoom(name: roomName)

        // The role taken away, the power goes with it.
        try await creator.removeRoomAdmin(ids[1], in: room.id)
        #expect(try await creator.roomAdmins(room.id).isEmpty)
        #expect(await code { () throws(ParleyError) in try await creator.removeRoomAdmin(ids[1], in: room.id) } == .notFound)
        #expect(await code { () throws(ParleyError) in try await admin.kick(ids[2], from: room.id) } == .notAdmin)
        for client in clients { await client.stop() }
    }
}
