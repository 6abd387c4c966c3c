import ParleyCore
import ParleyProtocol
import TestSupport
import Testing

/// What group governance keeps: roles and where a member's history starts, each group's
/// rules of entry, bans, mutes, join requests and invites.
@Suite struct StoreContractGovernanceTests {
    /// A group owned by the first of `people`, each of whom is a member.
    private func group(_ store: any InspectableStore, _ people: [StoredUser]) async throws -> ConversationID {
        try await store.write { writer in
            let group = try writer.insertConversation(NewConversation(kind: .group, name: "Rules", ownerID: people[0].id, createdAt: 1))
            for (index, person) in people.enumerated() {
                try writer.saveMember(StoredMember(conversationID: group.id, userID: person.id, role: index == 0 ? .owner : .member,
                                                   joinedAt: 1, readSeq: 0))
            }
            return group.id
        }
    }

    @Test(arguments: StoreBackend.available) func adminRoleAndHistoryStartRoundTrip(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let people = try await insertUsers(store, ["ann", "bob"])
            let group = try await group(store, people)
            let bob = people[1].id
            try await store.write { writer in
                try writer.saveMember(StoredMember(conversationID: group, userID: bob, role: .admin, joinedAt: 5, readSeq: 3, historyFrom: 7))
            }
            let stored = try await store.read { reader in try reader.member(of: group, user: bob) }
            #expect(stored == StoredMember(conversationID: group, userID: bob, role: .admin, joinedAt: 5, readSeq: 3, historyFrom: 7))
            let listed = try await store.read { reader in try reader.members(of: group, after: nil, limit: 10) }
            #expect(listed.map(\.role) == [.owner, .admin])
        }
    }

    @Test(arguments: StoreBackend.available) func policiesBansMutesAndRequests(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let people = try await insertUsers(store, ["ann", "bob", "cy"])
            let group = try await group(store, people)
            let (ann, bob, cy) = (people[0].id, people[1].id, people[2].id)
            #expect(try await store.read { reader in try reader.groupPolicy(of: group) } == nil)
            try await store.write { writer in
                try writer.saveGroupPolicy(GroupPolicy(joinMode: .approval, showHistory: true), of: group)
                try writer.saveBan(StoredBan(conversationID: group, userID: bob, bannedBy: ann, reason: "spam", createdAt: 10))
                try writer.saveBan(StoredBan(conversationID: group, userID: cy, bannedBy: nil, reason: nil, createdAt: 11))
                try writer.saveMute(in: group, user: bob, until: 500)
                try writer.saveMute(in: group, user: bob, until: 900)
                try writer.saveJoinRequest(StoredJoinRequest(conversationID: group, userID: cy, createdAt: 20))
                try writer.saveJoinRequest(StoredJoinRequest(conversationID: group, userID: cy, createdAt: 30))
            }
            let (policy, ban, bans, muted, mutes, request, requests) = try await store.read { reader in
                (try reader.groupPolicy(of: group), try reader.ban(in: group, user: bob), try reader.bans(in: group, limit: 10),
                 try reader.mutedUntil(in: group, user: bob), try reader.mutes(in: group), try reader.joinRequest(in: group, user: cy),
                 try reader.joinRequests(in: group, limit: 10))
            }
            #expect(policy == GroupPolicy(joinMode: .approval, showHistory: true))
            #expect(ban == StoredBan(conversationID: group, userID: bob, bannedBy: ann, reason: "spam", createdAt: 10))
            #expect(bans.map(\.userID) == [bob, cy])
            #expect(muted == 900)
            #expect(mutes == [bob: 900])
            // A second request of the same user changes nothing.
            #expect(request?.createdAt == 20)
            #expect(requests.count == 1)
            let deleted = try await store.write { writer in
                [try writer.deleteBan(in: group, user: bob), try writer.deleteBan(in: group, user: bob),
                 try writer.deleteMute(in: group, user: bob), try writer.deleteJoinRequest(in: group, user: cy),
                 try writer.deleteJoinRequest(in: group, user: cy)]
            }
            #expect(deleted == [true, false, true, true, false])
            #expect(try await store.read { reader in try reader.bans(in: group, limit: 10).map(\.userID) } == [cy])
            #expect(try await store.read { reader in try reader.mutedUntil(in: group, user: bob) } == nil)
        }
    }

    @Test(arguments: StoreBackend.available) func invitesAndInvitations(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let people = try await insertUsers(store, ["ann", "bob", "cy"])
            let group = try await group(store, people)
            let (ann, bob, cy) = (people[0].id, people[1].id, people[2].id)
            let link = StoredInvite(token: "link-1", conversationID: group, createdBy: ann, createdAt: 5, expiresAt: 100, maxUses: 3)
            let older = StoredInvite(token: "link-0", conversationID: group, createdBy: bob, createdAt: 4)
            let personal = StoredInvite(token: "personal", conversationID: group, createdBy: bob, invitee: cy, createdAt: 6, maxUses: 1)
            try await store.write { writer in
                for invite in [link, older, personal] { try writer.insertInvite(invite) }
            }
            #expect(try await store.read { reader in try reader.invite(token: "link-1") } == link)
            // Links newest first, members' invitations left out.
            #expect(try await store.read { reader in try reader.invites(in: group, limit: 10).map(\.token) } == ["link-1", "link-0"])
            #expect(try await store.read { reader in try reader.invitation(in: group, for: cy)?.token } == "personal")
            #expect(try await store.read { reader in try reader.invitation(in: group, for: bob) } == nil)
            var used = personal
            used.uses = 1
            var revoked = older
            revoked.revoked = true
            try await store.write { [used, revoked] writer in
                try writer.updateInvite(used)
                try writer.updateInvite(revoked)
            }
            #expect(try await store.read { reader in try reader.invitation(in: group, for: cy) } == nil)
            #expect(try await store.read { reader in try reader.invites(in: group, limit: 10).map(\.token) } == ["link-1"])
            #expect(try await store.read { reader in try reader.invite(token: "link-0")?.revoked } == true)
        }
    }
}
