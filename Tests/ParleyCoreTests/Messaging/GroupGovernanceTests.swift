import CoreTestSupport
import ParleyCore
import ParleyProtocol
import Testing

/// Join modes, invite links, bans, mutes and history visibility, on the core with a clock
/// the tests move.
@Suite struct GroupGovernanceTests {
    private func code(_ body: () async throws -> Void) async -> String? {
        do {
            try await body()
            return nil
        } catch let error as ProtocolError {
            return error.code.rawValue
        } catch {
            return "\(error)"
        }
    }

    private func say(_ core: CoreFixture, _ user: UserID, in group: ConversationID, _ text: String) async throws {
        _ = try await core.conversations.send(from: user, SendParameters(conversationId: group, clientId: "\(user)-\(text)", kind: .text, text: text),
                                              connection: nil)
    }

    @Test func invitesStopWhenExpiredUsedUpOrRevoked() async throws {
        let core = try CoreFixture()
        let owner = try await core.user("owner")
        let (ann, bob, cy, dee) = (try await core.user("ann"), try await core.user("bob"), try await core.user("cy"), try await core.user("dee"))
        let group = try await core.groups.create(by: owner, CreateParameters(name: "Closed")).id
        _ = try await core.groups.update(by: owner, GroupUpdate(conversationId: group, joinMode: .invite))
        #expect(await code { _ = try await core.groups.join(by: ann, NameReference(name: "Closed")) } == "invite_only")

        let once = try await core.groups.createInvite(by: owner, InviteCreateParameters(conversationId: group, maxUses: 1))
        let preview = try await core.groups.preview(for: ann, InviteToken(token: once.token))
        #expect(preview.name == "Closed" && preview.memberCount == 1 && preview.joinMode == .invite)
        #expect(try await core.groups.join(by: ann, InviteToken(token: once.token)).memberCount == 2)
        #expect(await code { _ = try await core.groups.join(by: bob, InviteToken(token: once.token)) } == "invite_used_up")

        let hour = try await core.groups.createInvite(by: owner, InviteCreateParameters(conversationId: group, expiresIn: 3600))
        core.clock.advance(milliseconds: 3_600_001)
        #expect(await code { _ = try await core.groups.preview(for: bob, InviteToken(token: hour.token)) } == "invite_expired")
        #expect(await code { _ = try await core.groups.join(by: bob, InviteToken(token: hour.token)) } == "invite_expired")

        let open = try await core.groups.createInvite(by: owner, InviteCreateParameters(conversationId: group))
        #expect(try await core.groups.invites(for: owner, ConversationReference(conversationId: group)).invites.map(\.token) == [open.token])
        try await core.groups.revokeInvite(by: owner, InviteToken(token: open.token))
        #expect(await code { _ = try await core.groups.join(by: cy, InviteToken(token: open.token)) } == "invite_revoked")
        #expect(try await core.groups.invites(for: owner, ConversationReference(conversationId: group)).invites.isEmpty)
        #expect(await code { _ = try await core.groups.preview(for: cy, InviteToken(token: "made-up")) } == "not_found")

        // A member's invitation of a friend: only that friend may use it, once.
        _ = try await core.befriend(ann, dee)
        let personal = try await core.groups.inviteFriend(by: ann, MemberReference(conversationId: group, userId: dee))
        #expect(await code { _ = try await core.groups.join(by: cy, InviteToken(token: personal.token)) } == "not_found")
        let invited = core.delivery.events.compactMap { sent -> GroupInvitation? in
            if case .groupInvited(let invitation) = sent.event, sent.users == [dee] { return invitation }
            return nil
        }
        #expect(invited.map(\.token) == [personal.token])
        // The invitation also opens the door by name.
        #expect(try await core.groups.join(by: dee, NameReference(name: "Closed")).memberCount == 3)
        #expect(await code { _ = try await core.groups.inviteFriend(by: ann, MemberReference(conversationId: group, userId: cy)) } == "not_friends")
    }

    @Test func approvalRequestsAreAcceptedOrDeclinedByAdmins() async throws {
        let core = try CoreFixture()
        let owner = try await core.user("owner")
        let (admin, ann, bob) = (try await core.user("admin"), try await core.user("ann"), try await core.user("bob"))
        let group = try await core.groups.create(by: owner, CreateParameters(name: "Vetted")).id
        _ = try await core.groups.join(by: admin, NameReference(name: "Vetted"))
        try await core.groups.addAdmin(by: owner, MemberReference(conversationId: group, userId: admin))
        _ = try await core.groups.update(by: admin, GroupUpdate(conversationId: group, joinMode: .approval))
        #expect(try await core.groups.join(by: ann, NameReference(name: "Vetted")).pending == true)
        #expect(try await core.groups.join(by: bob, NameReference(name: "Vetted")).pending == true)
        #expect(await code { _ = try await core.conversations.history(for: ann, HistoryParameters(conversationId: group)) } == "not_member")
        let requests = try await core.groups.requests(for: admin, ConversationReference(conversationId: group)).requests
        #expect(requests.map(\.user.id) == [ann, bob])
        _ = core.delivery.take()
        try await core.groups.acceptRequest(by: admin, MemberReference(conversationId: group, userId: ann))
        try await core.groups.declineRequest(by: admin, MemberReference(conversationId: group, userId: bob))
        let decisions = core.delivery.events.compactMap { sent -> (UserID, String)? in
            if case .groupRequestDecided(let state) = sent.event, let user = sent.users.first { return (user, state.state) }
            return nil
        }
        #expect(decisions.map(\.0) == [ann, bob])
        #expect(decisions.map(\.1) == ["accepted", "declined"])
        let members = try await core.groups.members(for: owner, GroupMembersParameters(conversationId: group)).members
        #expect(Set(members.map(\.user.id)) == [owner, admin, ann])
        #expect(members.first { $0.user.id == admin }?.role == "admin")
        let notices = try await core.conversations.history(for: owner, HistoryParameters(conversationId: group)).messages.compactMap(\.system?.type)
        #expect(notices.contains(.joinRequested) && notices.contains(.joinDeclined) && notices.contains(.adminAdded))
        #expect(try await core.groups.requests(for: owner, ConversationReference(conversationId: group)).requests.isEmpty)
    }

    @Test func banSurvivesARenameAndMutesEnd() async throws {
        let core = try CoreFixture()
        let owner = try await core.user("owner")
        let (troll, quiet) = (try await core.user("troll"), try await core.user("quiet"))
        let group = try await core.groups.create(by: owner, CreateParameters(name: "Calm")).id
        _ = try await core.groups.join(by: troll, NameReference(name: "Calm"))
        _ = try await core.groups.join(by: quiet, NameReference(name: "Calm"))
        try await core.groups.ban(by: owner, BanParameters(conversationId: group, userId: troll, reason: "spam"))
        #expect(await code { try await self.say(core, troll, in: group, "back") } == "not_member")
        // A new name does not help: the ban is by id.
        try await core.store.write { writer in
            guard var user = try writer.user(id: troll) else { return }
            user.username = "angel"
            try writer.updateUser(user)
        }
        #expect(await code { _ = try await core.groups.join(by: troll, NameReference(name: "Calm")) } == "banned")
        let link = try await core.groups.createInvite(by: owner, InviteCreateParameters(conversationId: group))
        #expect(await code { _ = try await core.groups.join(by: troll, InviteToken(token: link.token)) } == "banned")
        #expect(try await core.groups.bans(for: owner, ConversationReference(conversationId: group)).bans.map(\.reason) == ["spam"])
        try await core.groups.unban(by: owner, MemberReference(conversationId: group, userId: troll))
        #expect(try await core.groups.join(by: troll, NameReference(name: "Calm")).role == "member")

        try await core.groups.mute(by: owner, MuteMemberParameters(conversationId: group, userId: quiet, until: core.clock.now + 60_000))
        #expect(await code { try await self.say(core, quiet, in: group, "one") } == "muted")
        core.clock.advance(milliseconds: 60_001)
        try await say(core, quiet, in: group, "two")
        try await core.groups.mute(by: owner, MuteMemberParameters(conversationId: group, userId: quiet, until: core.clock.now + 60_000))
        try await core.groups.unmute(by: owner, MemberReference(conversationId: group, userId: quiet))
        try await say(core, quiet, in: group, "three")
    }

    @Test func newcomersSeeHistoryFromTheirJoiningUnlessTheGroupShowsIt() async throws {
        let core = try CoreFixture()
        let owner = try await core.user("owner")
        let (late, later) = (try await core.user("late"), try await core.user("later"))
        let group = try await core.groups.create(by: owner, CreateParameters(name: "Diary")).id
        try await say(core, owner, in: group, "secret plans")
        // The archive goes by time: the join comes a moment later.
        core.clock.advance(milliseconds: 1000)
        _ = try await core.groups.join(by: late, NameReference(name: "Diary"))
        try await say(core, owner, in: group, "public news")
        let seen = try await core.conversations.history(for: late, HistoryParameters(conversationId: group)).messages.compactMap(\.text)
        #expect(seen == ["public news"])
        let synced = try await core.conversations.sync(for: late, SyncParameters(since: [:])).messages.compactMap(\.text)
        #expect(synced == ["public news"])
        let archived = try await core.conversations.archive(for: late, ArchiveQuery(scope: .conversation(group))).messages.compactMap(\.text)
        #expect(archived == ["public news"])
        let found = try await core.conversations.search.search(for: late, MessageSearchParameters(query: "secret")).hits
        #expect(found.isEmpty)
        #expect(try await core.conversations.search.search(for: owner, MessageSearchParameters(query: "secret")).hits.count == 1)

        _ = try await core.groups.update(by: owner, GroupUpdate(conversationId: group, showHistory: true))
        _ = try await core.groups.join(by: later, NameReference(name: "Diary"))
        let all = try await core.conversations.history(for: later, HistoryParameters(conversationId: group)).messages.compactMap(\.text)
        #expect(all == ["secret plans", "public news"])
    }

    private func occupants(_ core: CoreFixture, _ room: ConversationID, asking host: UserID) async throws -> Set<UserID> {
        Set(try await core.rooms.occupants(for: host, OccupantsParameters(conversationId: room)).users.map(\.id))
    }

    @Test func roomCreatorKicksAndBans() async throws {
        let core = try CoreFixture()
        let host = try await core.user("host")
        let (guest, other) = (try await core.user("guest"), try await core.user("other"))
        let room = try await core.rooms.create(by: host, CreateParameters(name: "Lounge")).room.id
        _ = try await core.rooms.enter(by: guest, NameReference(name: "Lounge"))
        _ = try await core.rooms.enter(by: other, NameReference(name: "Lounge"))
        #expect(await code { try await core.rooms.kick(by: other, BanParameters(conversationId: room, userId: guest)) } == "not_admin")
        try await core.rooms.kick(by: host, BanParameters(conversationId: room, userId: guest))
        #expect(try await occupants(core, room, asking: host) == [host, other])
        #expect(core.delivery.events.contains { if case .roomKicked(let kick) = $0.event { kick.banned == false && $0.users == [guest] } else { false } })
        // A kick is not a ban: the guest may come back.
        _ = try await core.rooms.enter(by: guest, NameReference(name: "Lounge"))
        try await core.rooms.ban(by: host, BanParameters(conversationId: room, userId: guest, reason: "rude"))
        #expect(try await occupants(core, room, asking: host) == [host, other])
        #expect(await code { _ = try await core.rooms.enter(by: guest, NameReference(name: "Lounge")) } == "banned")
        #expect(try await core.rooms.bans(for: host, ConversationReference(conversationId: room)).bans.map(\.user.id) == [guest])
        try await core.rooms.unban(by: host, MemberReference(conversationId: room, userId: guest))
        _ = try await core.rooms.enter(by: guest, NameReference(name: "Lounge"))
        #expect(try await occupants(core, room, asking: host) == [host, other, guest])
    }
}
