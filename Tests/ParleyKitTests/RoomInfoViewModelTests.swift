import Foundation
import ParleyKit
import ParleyProtocol
import Testing

/// A room's info page against a real server: the creator, an admin and an occupant each see
/// the menu their rank allows, act through it, lift a ban, and rename the room.
@Suite("Room info page against a real server", .serialized)
@MainActor
struct RoomInfoViewModelTests {
    @Test("ranks decide the occupant menu; kicks, bans, admins and the rename work through the page")
    func moderation() async throws {
        let server = try TestServer()
        defer { server.stop() }
        var clients: [ParleyClient] = []
        var ids: [UserID] = []
        for base in ["creator", "admin", "guest", "pest"] {
            let client = try KitHarness.client(server)
            try await client.register(username: KitHarness.username(base), password: "password123")
            clients.append(client)
            if let id = await client.account?.profile.id { ids.append(id) }
        }
        try #require(ids.count == 4)
        let (creator, admin, guest, pest) = (clients[0], clients[1], clients[2], clients[3])
        let name = "Porch \(UUID().uuidString.prefix(4))"
        let room = try await creator.createRoom(name: name).room.id
        for client in [admin, guest, pest] { _ = try await client.enterRoom(name: name) }

        let page = RoomInfoViewModel(client: creator, conversation: room)
        await page.refresh()
        #expect(page.lastError == nil)
        #expect(page.role == .creator && page.moderates && page.occupants.count == 4 && page.admins.isEmpty)
        #expect(page.actions(for: ids[0]).isEmpty)
        #expect(page.actions(for: ids[1]) == [.makeAdmin, .kick, .ban])
        await page.perform(.makeAdmin, on: ids[1])
        #expect(page.admins.map(\.id) == [ids[1]] && page.role(of: ids[1]) == .admin)
        #expect(page.actions(for: ids[1]) == [.removeAdmin, .kick, .ban])

        // The admin's page: nothing on the creator, kick and ban on an occupant, no appointing.
        let adminPage = RoomInfoViewModel(client: admin, conversation: room)
        await adminPage.refresh()
        #expect(adminPage.role == .admin && adminPage.bans.isEmpty)
        #expect(adminPage.actions(for: ids[0]).isEmpty)
        #expect(adminPage.actions(for: ids[2]) == [.kick, .ban])
        await adminPage.perform(.ban, on: ids[3], reason: "noise")
        #expect(adminPage.lastError == nil)
        #expect(adminPage.bans.map(\.user.id) == [ids[3]] && adminPage.bans.first?.reason == "noise")
        #expect(!adminPage.occupants.contains { $0.id == ids[3] })
        // A banned user who is out can still be named in a ban, not kicked.
        #expect(adminPage.actions(for: ids[3]) == [.ban])

        // An occupant's page moderates nothing and reads no bans.
        let guestPage = RoomInfoViewModel(client: guest, conversation: room)
        await guestPage.refresh()
        #expect(guestPage.role == .occupant && !guestPage.moderates && guestPage.bans.isEmpty)
        #expect(guestPage.actions(for: ids[1]).isEmpty && guestPage.actions(for: ids[3]).isEmpty)
        // The server holds the same rule: the occupant's kick is refused and shown.
        await guestPage.perform(.kick, on: ids[1])
        #expect(guestPage.lastError?.code == .notAdmin)

        // The ban lifted: the door opens again.
        let ban = try #require(adminPage.bans.first)
        await adminPage.lift(ban)
        #expect(adminPage.bans.isEmpty)
        _ = try await pest.enterRoom(name: name)

        // Anyone in the room renames it; the page shows the new name.
        await guestPage.update(name: .set(name + " 2"))
        #expect(guestPage.lastError == nil && guestPage.room?.name == name + " 2")
        // The role taken away takes the menu with it.
        await page.perform(.removeAdmin, on: ids[1])
        await adminPage.refresh()
        #expect(adminPage.role == .occupant && adminPage.actions(for: ids[2]).isEmpty)
    }
}
