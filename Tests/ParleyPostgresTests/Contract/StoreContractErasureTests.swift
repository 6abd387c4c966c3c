import ParleyCore
import ParleyProtocol
import Testing

/// Erasing a deleted account (`StoreWriter.eraseUser`) and reserving its username.
@Suite struct StoreContractErasureTests {
    @Test(arguments: StoreBackend.available, [false, true])
    func erasingAUserLeavesOnlyTheirIdAndTheirMessages(_ backend: StoreBackend, erasingMessages: Bool) async throws {
        try await withStore(backend) { store in
            let mei = try await store.write { try $0.insertUser(newUser("mei", phone: "+8613800000001")) }
            let bob = try await store.write { try $0.insertUser(newUser("bob")) }
            let cat = try await store.write { try $0.insertUser(newUser("cat")) }
            let (direct, sent) = try await store.write { writer -> (ConversationID, Message) in
                var user = try #require(try writer.user(id: mei.id))
                user.nickname = "Mei"
                user.signature = "hello"
                user.hobbies = ["tea"]
                user.age = 30
                user.avatar = "/v1/media/m-avatar"
                try writer.updateUser(user)
                try writer.insertSession(StoredSession(id: "s-mei", userID: mei.id, tokenHash: Array(repeating: 1, count: 32),
                                                       createdAt: 1, lastSeenAt: 1, userAgent: "ua", deviceName: "phone"))
                try writer.insertSession(StoredSession(id: "s-bob", userID: bob.id, tokenHash: Array(repeating: 2, count: 32),
                                                       createdAt: 1, lastSeenAt: 1, userAgent: nil))
                try writer.replaceSCRAMCredentials(of: mei.id, with: [StoredSCRAMCredential(mechanism: "SCRAM-SHA-256", salt: [1],
                                                                                             iterations: 4096, storedKey: [2], serverKey: [3])])
                let conversation = try writer.insertConversation(NewConversation(kind: .user, userA: mei.id, userB: bob.id, createdAt: 1))
                for member in [mei.id, bob.id] {
                    try writer.saveMember(StoredMember(conversationID: conversation.id, userID: member, role: .member, joinedAt: 1, readSeq: 0))
                }
                try writer.insertFriendship(mei.id, bob.id, conversation: conversation.id, at: 1)
                try writer.insertFriendRequest(StoredFriendRequest(id: "r1", fromID: mei.id, toID: cat.id, greeting: "hi cat", createdAt: 2))
                try writer.insertBlock(by: cat.id, target: mei.id, at: 3)
                try writer.saveSwipe(StoredSwipe(userID: bob.id, targetID: mei.id, liked: true, createdAt: 4))
                try writer.insertMedia(StoredMedia(id: "m-avatar", ownerID: mei.id, type: .png, width: 1, height: 1, size: 10, createdAt: 5))
                try writer.saveSMSChallenge(SMSChallenge(phone: "+8613800000001", codeHash: [9], sentAt: 6, expiresAt: 600_006, failedAttempts: 0))
                try writer.recordSMSSend(phone: "+8613800000001", at: 6, forgetBefore: 0)
                let message = try writer.appendMessage(NewMessage(conversationID: conversation.id, sender: mei.id, clientID: "c1",
                                                                  kind: .text, text: "see you", createdAt: 7))
                return (conversation.id, message)
            }

            let erased = try await store.write { try $0.eraseUser(mei.id, at: 9_000, erasingMessages: erasingMessages) }
            #expect(erased.sessionIDs == ["s-mei"])
            #expect(erased.mediaIDs == ["m-avatar"])
            #expect(erased.friends == [bob.id])

            let user = try #require(try await store.read { try $0.user(id: mei.id) })
            #expect(user == StoredUser(id: mei.id, username: nil, passwordHash: nil, phone: nil, createdAt: mei.createdAt, deletedAt: 9_000))
            #expect(user.profile.deleted == true && user.profile.displayName == "Deleted user")
            #expect(try await store.read { try $0.user(username: "mei") } == nil)
            #expect(try await store.read { try $0.user(phone: "+8613800000001") } == nil)
            #expect(try await store.read { try $0.sessions(of: mei.id) }.isEmpty)
            #expect(try await store.read { try $0.sessions(of: bob.id) }.map(\.id) == ["s-bob"])
            #expect(try await store.read { try $0.scramCredentials(of: mei.id) }.isEmpty)
            #expect(try await store.read { try $0.friendships(of: bob.id) }.isEmpty)
            #expect(try await store.read { try $0.friendRequests(to: cat.id) }.isEmpty)
            #expect(try await store.read { try $0.blockedUsers(by: cat.id) }.isEmpty)
            #expect(try await store.read { try $0.swipe(by: bob.id, on: mei.id) } == nil)
            #expect(try await store.read { try $0.media(id: "m-avatar") } == nil)
            #expect(try await store.read { try $0.smsChallenge(phone: "+8613800000001") } == nil)
            #expect(try await store.read { try $0.smsSendTimes(phone: "+8613800000001", since: 0) }.isEmpty)
            // Nobody is offered the account in discover.
            #expect(try await store.read { try $0.discoverCandidates(for: cat.id, after: nil, limit: 10) }.map(\.id) == [bob.id])
            // The message keeps its place; its content goes only when asked.
            let kept = try #require(try await store.read { try $0.message(in: direct, seq: sent.seq) })
            #expect(kept.sender == mei.id && kept.id == sent.id)
            #expect(kept.text == (erasingMessages ? "" : "see you"))
        }
    }

    @Test(arguments: StoreBackend.available) func aQuarantinedUsernameIsReservedUntilItsEnd(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let hash = Array(repeating: UInt8(7), count: 32), other = Array(repeating: UInt8(8), count: 32)
            try await store.write { try $0.quarantineUsername(hash: hash, until: 5_000, now: 1_000) }
            #expect(try await store.read { try $0.isUsernameQuarantined(hash: hash, at: 4_999) })
            #expect(try await store.read { try $0.isUsernameQuarantined(hash: hash, at: 5_000) } == false)
            #expect(try await store.read { try $0.isUsernameQuarantined(hash: other, at: 1_000) } == false)
            // A second deletion of the same name extends the reservation, never shortens it.
            try await store.write { try $0.quarantineUsername(hash: hash, until: 3_000, now: 1_000) }
            #expect(try await store.read { try $0.isUsernameQuarantined(hash: hash, at: 4_000) })
            try await store.write { try $0.quarantineUsername(hash: hash, until: 8_000, now: 1_000) }
            #expect(try await store.read { try $0.isUsernameQuarantined(hash: hash, at: 7_000) })
            // Ended reservations are forgotten as new ones come.
            try await store.write { try $0.quarantineUsername(hash: other, until: 20_000, now: 9_000) }
            #expect(try await store.read { try $0.isUsernameQuarantined(hash: hash, at: 7_000) } == false)
        }
    }
}
