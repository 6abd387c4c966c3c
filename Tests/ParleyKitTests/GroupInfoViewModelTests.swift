import Foundation
import ParleyKit
import ParleyProtocol
import Testing

@Suite("Group info page against a real server", .serialized)
@MainActor
struct GroupInfoViewModelTests {
    @Test("roles decide the member menu; links, requests and the join mode work through the page")
    func governance() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let names = ["owner", "admin", "member", "newcomer"].map { KitHarness.username($0) }
        var clients: [ParleyClient] = []
        for name in names {
            let client = try KitHarness.client(server)
            try await client.register(username: name, password: "password123")
            clients.append(client)
        }
        let (owner, admin, member, newcomer) = (clients[0], clients[1], clients[2], clients[3])
        let everyone = clients
        try await KitHarness.eventually("online") { everyone.allSatisfy { $0.connectionState.isOnline } }
        var ids: [UserID] = []
        for client in clients { if let id = await client.account?.profile.id { ids.append(id) } }
        try #require(ids.count == 4)
        let groupName = "Council \(UUID().uuidString.prefix(4))"
        let group = try await owner.createGroup(name: groupName).id
        _ = try await admin.joinGroup(name: groupName)
        _ = try await member.joinGroup(name: groupName)

        let page = GroupInfoViewModel(client: owner, conversation: group)
        await page.refresh()
        #expect(page.role == "owner" && page.members.count == 3)
        let adminRow = try #require(page.members.first { $0.user.id == ids[1] })
        #expect(page.actions(for: adminRow, me: ids[0]) == [.makeAdmin, .remove, .mute, .ban])
        await page.perform(.makeAdmin, on: ids[1], now: Int64(Date().timeIntervalSince1970 * 1000))
        #expect(page.members.first { $0.user.id == ids[1] }?.role == "admin")

        // The admin's page: no menu on the owner, the full menu but "make admin" on a member.
        let adminPage = GroupInfoViewModel(client: admin, conversation: group)
        await adminPage.refresh()
        #expect(adminPage.role == "admin" && adminPage.moderates)
        let ownerRow = try #require(adminPage.members.first { $0.user.id == ids[0] })
        let memberRow = try #require(adminPage.members.first { $0.user.id == ids[2] })
        #expect(adminPage.actions(for: ownerRow, me: ids[1]).isEmpty)
        #expect(adminPage.actions(for: memberRow, me: ids[1]) == [.remove, .mute, .ban])
        await adminPage.perform(.mute, on: ids[2], now: Int64(Date().timeIntervalSince1970 * 1000))
        #expect(adminPage.members.first { $0.user.id == ids[2] }?.mutedUntil != nil)
        do {
            _ = try await member.call(Op.MessageSend.self, SendParameters(conversationId: group, clientId: "m1", kind: .text, text: "hi"))
            Issue.record("a muted member posted")
        } catch {
            #expect(error.code == .muted)
        }
        // A member's page shows no moderation.
        let memberPage = GroupInfoViewModel(client: member, conversation: group)
        await memberPage.refresh()
        #expect(!memberPage.moderates && memberPage.actions(for: ownerRow, me: ids[2]).isEmpty)

        // Links: made, previewed, revoked.
        let invite = try #require(await page.createInvite(maxUses: 5))
        #expect(page.invites.map(\.token) == [invite.token])
        #expect(try await newcomer.previewInvite(invite.token).name == groupName)
        await page.revoke(invite)
        #expect(page.invites.isEmpty)
        do {
            _ = try await newcomer.joinGroup(invite: invite.token)
            Issue.record("a revoked link worked")
        } catch {
            #expect(error.code == .inviteRevoked)
        }

        // Approval: the newcomer's join waits; the admin accepts from the page; the newcomer hears of it.
        await page.setPolicy(joinMode: .approval)
        #expect(page.group?.joinMode == .approval)
        let decisions = newcomer.events()
        #expect(try await newcomer.joinGroup(name: groupName).pending == true)
        await adminPage.refresh()
        let request = try #require(adminPage.requests.first)
        #expect(request.user.id == ids[3])
        await adminPage.answer(request, accept: true)
        #expect(adminPage.requests.isEmpty && adminPage.members.count == 4)
        var heard: JoinRequestState?
        for await event in decisions {
            if case .groupRequestDecided(let state) = event {
                heard = state
                break
            }
        }
        #expect(heard?.state == "accepted" && heard?.group?.id == group)
        for client in clients { await client.stop() }
    }
}
