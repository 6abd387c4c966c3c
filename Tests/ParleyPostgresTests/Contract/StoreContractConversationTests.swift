import ParleyCore
import ParleyProtocol
import Testing

/// Conversations, members, read markers and the inbox.
@Suite struct StoreContractConversationTests {
    @Test(arguments: StoreBackend.available) func groupsRoundTripAndAreFoundByNameWithoutRegardToCase(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let owner = try await insertUsers(store, ["ann"])[0]
            let new = NewConversation(kind: .group, name: "Tea Club 🍵", avatar: "/v1/media/a1", description: "line\n\"two\"",
                                      ownerID: owner.id, createdAt: 100)
            let group = try await store.write { try $0.insertConversation(new) }
            #expect(group == StoredConversation(id: group.id, kind: .group, name: "Tea Club 🍵", avatar: "/v1/media/a1",
                                                description: "line\n\"two\"", ownerID: owner.id, lastSeq: 0,
                                                lastActivityAt: 100, createdAt: 100))
            try await store.read { reader throws in
                #expect(try reader.conversation(id: group.id) == group)
                #expect(try reader.conversation(id: ConversationID(9_999)) == nil)
                #expect(try reader.conversation(kind: .group, name: "TEA CLUB 🍵") == group)
                #expect(try reader.conversation(kind: .room, name: "tea club 🍵") == nil)
                #expect(try reader.conversation(kind: .group, name: "Tea Club") == nil)
            }
        }
    }

    @Test(arguments: StoreBackend.available) func namesAreUniquePerKindWithoutRegardToCaseSoAGroupAndARoomMayShareOne(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let owner = try await insertUsers(store, ["ann"])[0]
            let group = try await store.write { try $0.insertConversation(newGroup("Lobby", owner: owner.id, at: 1)) }
            let room = try await store.write { try $0.insertConversation(NewConversation(kind: .room, name: "LOBBY", createdAt: 2)) }
            #expect(group.id != room.id)
            await #expect(throws: StoreError.conflict("name")) {
                try await store.write { try $0.insertConversation(newGroup("lobby", owner: owner.id, at: 3)) }
            }
            await #expect(throws: StoreError.conflict("name")) {
                try await store.write { try $0.insertConversation(NewConversation(kind: .room, name: "lObBy", createdAt: 4)) }
            }
            #expect(try await store.read { try $0.conversation(kind: .room, name: "lobby") } == room)
            #expect(try await store.read { try $0.conversation(kind: .group, name: "lobby") } == group)
        }
    }

    @Test(arguments: StoreBackend.available) func aDirectConversationIsFoundEitherWayAndASecondOneForThePairIsAConflict(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let people = try await insertUsers(store, ["ann", "bob", "cy"])
            let (ann, bob, cy) = (people[0].id, people[1].id, people[2].id)
            // Given larger id first: stored smaller first.
            let chat = try await insertDirectConversation(store, bob, ann, at: 5)
            #expect(chat.userA == ann && chat.userB == bob && chat.kind == .user)
            #expect(try await store.read { try $0.directConversation(between: ann, and: bob) } == chat)
            #expect(try await store.read { try $0.directConversation(between: bob, and: ann) } == chat)
            #expect(try await store.read { try $0.directConversation(between: ann, and: cy) } == nil)
            for (a, b) in [(ann, bob), (bob, ann)] {
                await #expect(throws: StoreError.conflict("pair")) {
                    try await store.write { try $0.insertConversation(NewConversation(kind: .user, userA: a, userB: b, createdAt: 6)) }
                }
            }
            _ = try await insertDirectConversation(store, ann, cy)
        }
    }

    @Test(arguments: StoreBackend.available) func updateReplacesInfoAndOwnerAndRefusesAnotherGroupsName(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let people = try await insertUsers(store, ["ann", "bob"])
            let (ann, bob) = (people[0].id, people[1].id)
            let (tea, chess) = try await store.write { writer in
                (try writer.insertConversation(newGroup("Tea", owner: ann, at: 1)),
                 try writer.insertConversation(NewConversation(kind: .group, name: "Chess", avatar: "a", description: "d",
                                                               ownerID: ann, createdAt: 2)))
            }
            _ = try await store.write { try $0.insertConversation(NewConversation(kind: .room, name: "Go", createdAt: 3)) }

            var renamed = tea
            renamed.name = "Green Tea"
            renamed.avatar = "/v1/media/x"
            renamed.description = "all about tea"
            renamed.ownerID = bob
            // Fields the store keeps are not the caller's to change.
            renamed.lastSeq = 42
            try await store.write { [renamed] in try $0.updateConversation(renamed) }
            var expected = renamed
            expected.lastSeq = 0
            #expect(try await store.read { try $0.conversation(id: tea.id) } == expected)
            #expect(try await store.read { try $0.conversation(kind: .group, name: "green TEA") }?.id == tea.id)
            #expect(try await store.read { try $0.conversation(kind: .group, name: "tea") } == nil)

            var clashing = chess
            clashing.name = "GREEN tea"
            let clash = clashing
            await #expect(throws: StoreError.conflict("name")) { try await store.write { try $0.updateConversation(clash) } }
            #expect(try await store.read { try $0.conversation(id: chess.id) } == chess)

            // Its own name in another case, a freed name, and a room's name are all fine.
            for name in ["CHESS", "Tea", "Go"] {
                var change = chess
                change.name = name
                try await store.write { [change] in try $0.updateConversation(change) }
                #expect(try await store.read { try $0.conversation(id: chess.id) }?.name == name)
            }
            // Clearing avatar and description.
            var cleared = chess
            cleared.avatar = nil
            cleared.description = nil
            try await store.write { [cleared] in try $0.updateConversation(cleared) }
            #expect(try await store.read { try $0.conversation(id: chess.id) } == cleared)
        }
    }

    @Test(arguments: StoreBackend.available) func membersAreSavedReplacedPagedCountedAndDeleted(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let people = try await insertUsers(store, ["ann", "bob", "cy", "dee", "eve"])
            let group = try await store.write { try $0.insertConversation(newGroup("g", owner: people[0].id, at: 1)) }
            let members = people.enumerated().map { index, person in
                StoredMember(conversationID: group.id, userID: person.id, role: index == 0 ? .owner : .member,
                             joinedAt: Int64(10 + index), readSeq: 0)
            }
            // Saved out of order: the lists come back by user id anyway.
            try await store.write { writer in for member in members.reversed() { try writer.saveMember(member) } }

            try await store.read { reader throws in
                #expect(try reader.member(of: group.id, user: people[0].id) == members[0])
                #expect(try reader.member(of: group.id, user: UserID(9_999)) == nil)
                #expect(try reader.memberIDs(of: group.id) == people.map(\.id))
                #expect(try reader.memberCount(of: group.id) == 5)
                #expect(try reader.memberCount(of: ConversationID(9_999)) == 0)
                #expect(try reader.members(of: group.id, after: nil, limit: 2) == Array(members[0..<2]))
                #expect(try reader.members(of: group.id, after: people[1].id, limit: 2) == Array(members[2..<4]))
                #expect(try reader.members(of: group.id, after: people[3].id, limit: 2) == [members[4]])
                #expect(try reader.members(of: group.id, after: people[4].id, limit: 2).isEmpty)
                #expect(try reader.members(of: group.id, after: nil, limit: 0).isEmpty)
            }

            var promoted = members[1]
            promoted.role = .owner
            promoted.readSeq = 3
            try await store.write { [promoted] in try $0.saveMember(promoted) }
            #expect(try await store.read { try $0.member(of: group.id, user: people[1].id) } == promoted)
            #expect(try await store.read { try $0.memberCount(of: group.id) } == 5)

            try await store.write { try $0.deleteMember(of: group.id, user: people[2].id) }
            #expect(try await store.read { try $0.memberIDs(of: group.id) } == [people[0].id, people[1].id, people[3].id, people[4].id])
        }
    }

    @Test(arguments: StoreBackend.available) func theReadMarkerOnlyMovesForwardAndNeverPastTheNewestMessage(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let people = try await insertUsers(store, ["ann", "bob"])
            let (ann, bob) = (people[0].id, people[1].id)
            let chat = try await insertDirectConversation(store, ann, bob)
            try await store.write { writer in
                try writer.saveMember(member(chat.id, ann, .member, joinedAt: 1))
                for index in 1...5 {
                    _ = try writer.appendMessage(NewMessage(conversationID: chat.id, sender: bob, clientID: "m\(index)", kind: .text,
                                                            text: "\(index)", createdAt: Int64(index)))
                }
            }
            func mark(_ seq: Int64) async throws -> Int64 {
                try await store.write { try $0.markRead(conversation: chat.id, user: ann, upTo: seq) }
            }
            #expect(try await mark(3) == 3)
            #expect(try await mark(2) == 3)
            #expect(try await mark(-1) == 3)
            #expect(try await mark(99) == 5)
            #expect(try await store.read { try $0.member(of: chat.id, user: ann) }?.readSeq == 5)
            // A new message is unread, not read in advance.
            _ = try await store.write { writer in
                try writer.appendMessage(NewMessage(conversationID: chat.id, sender: bob, clientID: "m6", kind: .text, text: "6",
                                                    createdAt: 6))
            }
            #expect(try await store.read { try $0.member(of: chat.id, user: ann) }?.readSeq == 5)
            #expect(try await mark(6) == 6)
            // Someone who is not a member has no marker, and gets none.
            #expect(try await store.write { try $0.markRead(conversation: chat.id, user: bob, upTo: 4) } == 0)
            #expect(try await store.read { try $0.member(of: chat.id, user: bob) } == nil)
        }
    }

    @Test(arguments: StoreBackend.available) func theInboxListsOneToOneAndGroupConversationsNewestActivityFirstWithTheLastMessage(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let people = try await insertUsers(store, ["me", "bob", "cy"])
            let (me, bob, cy) = (people[0].id, people[1].id, people[2].id)
            let (withBob, withCy, group, room, quiet, notMine) = try await store.write { writer in
                (try writer.insertConversation(NewConversation(kind: .user, userA: me, userB: bob, createdAt: 10)),
                 try writer.insertConversation(NewConversation(kind: .user, userA: me, userB: cy, createdAt: 11)),
                 try writer.insertConversation(newGroup("g", owner: me, at: 12)),
                 try writer.insertConversation(NewConversation(kind: .room, name: "r", createdAt: 13)),
                 try writer.insertConversation(newGroup("quiet", owner: me, at: 14)),
                 try writer.insertConversation(NewConversation(kind: .user, userA: bob, userB: cy, createdAt: 15)))
            }
            try await store.write { writer in
                for conversation in [withBob, withCy, group, room, quiet] {
                    try writer.saveMember(member(conversation.id, me, .member, joinedAt: 1))
                }
                try writer.saveMember(member(notMine.id, bob, .member, joinedAt: 1))
                func send(_ conversation: StoredConversation, _ sender: UserID, _ text: String, _ time: Int64) throws {
                    _ = try writer.appendMessage(NewMessage(conversationID: conversation.id, sender: sender, clientID: text,
                                                            kind: .text, text: text, createdAt: time))
                }
                try send(withBob, bob, "b1", 100)
                try send(group, cy, "g1", 200)
                try send(withCy, cy, "c1", 300)
                try send(withBob, me, "b2", 400)
                try send(room, cy, "r1", 500)
                try send(notMine, bob, "n1", 600)
            }
            try await store.write { _ = try $0.markRead(conversation: withBob.id, user: me, upTo: 1) }

            let inbox = try await store.read { try $0.inbox(of: me) }
            #expect(inbox.map(\.conversation.id) == [withBob.id, withCy.id, group.id, quiet.id])
            #expect(inbox.map { $0.lastMessage?.text } == ["b2", "c1", "g1", nil])
            #expect(inbox.map(\.conversation.lastSeq) == [2, 1, 1, 0])
            #expect(inbox.map(\.conversation.lastActivityAt) == [400, 300, 200, 14])
            // My own "b2" after my marker is nothing unread for me.
            #expect(inbox.map(\.unread) == [0, 1, 1, 0])
            let first = try #require(inbox.first)
            #expect(first.member == StoredMember(conversationID: withBob.id, userID: me, role: .member, joinedAt: 1, readSeq: 1))
            #expect(first.lastMessage == (try await store.read { try $0.message(in: withBob.id, seq: 2) }))
            #expect(first.conversation == (try await store.read { try $0.conversation(id: withBob.id) }))
            #expect(try await store.read { try $0.inbox(of: cy) }.isEmpty)
        }
    }

    @Test(arguments: StoreBackend.available) func totalUnreadSumsTheInboxesConversationsAndLeavesOutRoomsAndGroupsLeft(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let people = try await insertUsers(store, ["me", "bob", "cy", "dee"])
            let (me, bob, cy, dee) = (people[0].id, people[1].id, people[2].id, people[3].id)
            let (withBob, withCy, group, room, left, ahead, notMine) = try await store.write { writer in
                (try writer.insertConversation(NewConversation(kind: .user, userA: me, userB: bob, createdAt: 10)),
                 try writer.insertConversation(NewConversation(kind: .user, userA: me, userB: cy, createdAt: 11)),
                 try writer.insertConversation(newGroup("g", owner: me, at: 12)),
                 try writer.insertConversation(NewConversation(kind: .room, name: "r", createdAt: 13)),
                 try writer.insertConversation(newGroup("left", owner: dee, at: 14)),
                 try writer.insertConversation(newGroup("ahead", owner: me, at: 15)),
                 try writer.insertConversation(NewConversation(kind: .user, userA: bob, userB: cy, createdAt: 16)))
            }
            #expect(try await store.read { try $0.totalUnread(for: me) } == 0)
            try await store.write { writer in
                for conversation in [withBob, withCy, group, room, left, ahead] {
                    try writer.saveMember(member(conversation.id, me, .member, joinedAt: 1))
                }
                try writer.saveMember(member(notMine.id, bob, .member, joinedAt: 1))
                try writer.saveMember(member(notMine.id, cy, .member, joinedAt: 1))
                var sent = 0
                func send(_ conversation: StoredConversation, _ sender: UserID, count: Int) throws {
                    for _ in 0..<count {
                        sent += 1
                        _ = try writer.appendMessage(NewMessage(conversationID: conversation.id, sender: sender, clientID: "m\(sent)",
                                                                kind: .text, text: "\(sent)", createdAt: Int64(100 + sent)))
                    }
                }
                try send(withBob, bob, count: 5)
                try send(withCy, cy, count: 2)
                try send(group, dee, count: 4)
                try send(room, cy, count: 3)
                try send(left, dee, count: 6)
                try send(notMine, bob, count: 7)
                _ = try writer.markRead(conversation: withBob.id, user: me, upTo: 2)
                _ = try writer.markRead(conversation: withCy.id, user: me, upTo: 2)
                _ = try writer.markRead(conversation: group.id, user: me, upTo: 1)
                // A marker ahead of the conversation (kept from elsewhere) counts as nothing
                // unread, not as a negative count.
                try writer.saveMember(StoredMember(conversationID: ahead.id, userID: me, role: .owner, joinedAt: 1, readSeq: 9))
            }
            // 1:1 with bob 5 - 2, with cy 2 - 2, the group 4 - 1, the group not left yet 6 - 0;
            // the room's 3 never count, nor the 7 of a conversation of others.
            #expect(try await store.read { try $0.totalUnread(for: me) } == 3 + 0 + 3 + 6)
            try await store.write { try $0.deleteMember(of: left.id, user: me) }
            #expect(try await store.read { try $0.totalUnread(for: me) } == 3 + 0 + 3)
            // The same total as the inbox's conversations give, inside a write too.
            let inbox = try await store.read { try $0.inbox(of: me) }
            #expect(inbox.reduce(Int64(0)) { $0 + $1.unread } == 6)
            #expect(try await store.write { try $0.totalUnread(for: me) } == 6)
            // bob's own 7 are nothing unread for him; for cy they are.
            #expect(try await store.read { try $0.totalUnread(for: bob) } == 0)
            #expect(try await store.read { try $0.totalUnread(for: cy) } == 7)
            #expect(try await store.read { try $0.totalUnread(for: dee) } == 0)
        }
    }

    @Test(arguments: StoreBackend.available) func inboxTiesInActivityGoToTheNewerConversation(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let people = try await insertUsers(store, ["me", "bob"])
            let ids = try await store.write { writer in
                try (0..<3).map { index -> ConversationID in
                    let group = try writer.insertConversation(newGroup("g\(index)", owner: people[0].id, at: 7))
                    try writer.saveMember(member(group.id, people[0].id, .owner, joinedAt: 7))
                    return group.id
                }
            }
            #expect(try await store.read { try $0.inbox(of: people[0].id) }.map(\.conversation.id) == ids.reversed())
        }
    }

    private func newGroup(_ name: String, owner: UserID, at time: Int64) -> NewConversation {
        NewConversation(kind: .group, name: name, ownerID: owner, createdAt: time)
    }

    /// A membership with nothing read yet.
    private func member(_ conversation: ConversationID, _ user: UserID, _ role: StoredMember.Role, joinedAt: Int64) -> StoredMember {
        StoredMember(conversationID: conversation, userID: user, role: role, joinedAt: joinedAt, readSeq: 0)
    }
}
