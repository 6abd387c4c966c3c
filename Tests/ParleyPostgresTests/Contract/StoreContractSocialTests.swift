import ParleyCore
import ParleyProtocol
import Testing

/// Users by id, friend requests, friendships, blocks, swipes and discover.
@Suite struct StoreContractSocialTests {
    @Test(arguments: StoreBackend.available) func usersByIDReturnsThoseThatExistOnce(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let people = try await insertUsers(store, ["ann", "bob", "cy"])
            let found = try await store.read { try $0.users(ids: [people[2].id, UserID(9_999), people[0].id, people[2].id]) }
            #expect(found.sorted { $0.id < $1.id } == [people[0], people[2]])
            #expect(try await store.read { try $0.users(ids: []) }.isEmpty)
        }
    }

    @Test(arguments: StoreBackend.available) func friendRequestsRoundTripAndListOldestFirst(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let people = try await insertUsers(store, ["ann", "bob", "cy"])
            let (ann, bob, cy) = (people[0].id, people[1].id, people[2].id)
            let annToBob = StoredFriendRequest(id: "r1", fromID: ann, toID: bob, greeting: "hi 👋 \"bob\"", createdAt: 10)
            let cyToBob = request("r2", cy, bob, at: 5)
            let annToCy = request("r3", ann, cy, at: 10)
            try await store.write { writer in
                for request in [annToBob, cyToBob, annToCy] { try writer.insertFriendRequest(request) }
            }

            try await store.read { reader throws in
                #expect(try reader.friendRequest(id: "r1") == annToBob)
                #expect(try reader.friendRequest(id: "nope") == nil)
                #expect(try reader.pendingFriendRequest(from: ann, to: bob) == annToBob)
                #expect(try reader.pendingFriendRequest(from: bob, to: ann) == nil)
                #expect(try reader.friendRequests(to: bob) == [cyToBob, annToBob])
                // Same millisecond: the order they were made in.
                #expect(try reader.friendRequests(from: ann) == [annToBob, annToCy])
                #expect(try reader.friendRequests(to: ann).isEmpty)
            }
        }
    }

    @Test(arguments: StoreBackend.available) func aSecondPendingRequestInTheSameDirectionIsAConflictButTheOtherDirectionIsNot(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let people = try await insertUsers(store, ["ann", "bob"])
            let (ann, bob) = (people[0].id, people[1].id)
            try await store.write { try $0.insertFriendRequest(request("r1", ann, bob, at: 1)) }
            await #expect(throws: StoreError.conflict("friend_request")) {
                try await store.write { try $0.insertFriendRequest(StoredFriendRequest(id: "r2", fromID: ann, toID: bob,
                                                                                      greeting: "again", createdAt: 2)) }
            }
            try await store.write { try $0.insertFriendRequest(request("r3", bob, ann, at: 3)) }
            #expect(try await store.read { try $0.friendRequest(id: "r2") } == nil)
            #expect(try await store.read { try $0.friendRequest(id: "r3") }?.fromID == bob)
        }
    }

    @Test(arguments: StoreBackend.available) func friendRequestsAreDeletedByIDOrBothWaysBetweenTwoPeople(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let people = try await insertUsers(store, ["ann", "bob", "cy"])
            let (ann, bob, cy) = (people[0].id, people[1].id, people[2].id)
            try await store.write { writer in
                try writer.insertFriendRequest(request("ab", ann, bob, at: 1))
                try writer.insertFriendRequest(request("ba", bob, ann, at: 2))
                try writer.insertFriendRequest(request("ac", ann, cy, at: 3))
                try writer.insertFriendRequest(request("cb", cy, bob, at: 4))
            }
            try await store.write { try $0.deleteFriendRequests(between: bob, and: ann) }
            try await store.write { try $0.deleteFriendRequest(id: "cb") }
            let left = try await store.read { reader in
                try ["ab", "ba", "ac", "cb"].compactMap { try reader.friendRequest(id: $0)?.id }
            }
            #expect(left == ["ac"])
        }
    }

    @Test(arguments: StoreBackend.available) func friendshipsKeepBothSidesOldestFirstAndAreRemovedTogether(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let people = try await insertUsers(store, ["ann", "bob", "cy", "dee"])
            let (ann, bob, cy, dee) = (people[0].id, people[1].id, people[2].id, people[3].id)
            let annBob = try await insertDirectConversation(store, ann, bob)
            let annCy = try await insertDirectConversation(store, cy, ann)
            let annDee = try await insertDirectConversation(store, ann, dee)
            try await store.write { writer in
                try writer.insertFriendship(ann, bob, conversation: annBob.id, at: 30)
                try writer.insertFriendship(cy, ann, conversation: annCy.id, at: 20)
                try writer.insertFriendship(ann, dee, conversation: annDee.id, at: 30)
            }
            try await store.read { reader throws in
                #expect(try reader.friendship(of: ann, with: bob)
                    == StoredFriendship(userID: ann, friendID: bob, conversationID: annBob.id, since: 30))
                #expect(try reader.friendship(of: bob, with: ann)
                    == StoredFriendship(userID: bob, friendID: ann, conversationID: annBob.id, since: 30))
                #expect(try reader.friendship(of: bob, with: cy) == nil)
                #expect(try reader.friendships(of: ann).map(\.friendID) == [cy, bob, dee])
                #expect(try reader.friendships(of: cy).map(\.friendID) == [ann])
            }

            try await store.write { try $0.deleteFriendship(bob, ann) }
            try await store.read { reader throws in
                #expect(try reader.friendship(of: ann, with: bob) == nil)
                #expect(try reader.friendship(of: bob, with: ann) == nil)
                #expect(try reader.friendships(of: ann).map(\.friendID) == [cy, dee])
                #expect(try reader.friendships(of: bob).isEmpty)
            }
        }
    }

    @Test(arguments: StoreBackend.available) func blocksAreOneWayListedOldestFirstAndABlockAgainKeepsTheFirst(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let people = try await insertUsers(store, ["ann", "bob", "cy", "dee"])
            let (ann, bob, cy, dee) = (people[0].id, people[1].id, people[2].id, people[3].id)
            try await store.write { writer in
                try writer.insertBlock(by: ann, target: dee, at: 20)
                try writer.insertBlock(by: ann, target: bob, at: 10)
                try writer.insertBlock(by: ann, target: cy, at: 20)
                try writer.insertBlock(by: ann, target: bob, at: 99)
            }
            try await store.read { reader throws in
                #expect(try reader.isBlocked(bob, by: ann))
                #expect(try !reader.isBlocked(ann, by: bob))
                #expect(try reader.blockedUsers(by: ann) == [bob, dee, cy])
                #expect(try reader.blockedUsers(by: bob).isEmpty)
            }
            try await store.write { try $0.deleteBlock(by: ann, target: bob) }
            #expect(try await store.read { try $0.isBlocked(bob, by: ann) } == false)
            #expect(try await store.read { try $0.blockedUsers(by: ann) } == [dee, cy])
        }
    }

    @Test(arguments: StoreBackend.available) func theLastSwipeIsTheOneSavedLastAndUndoWalksBack(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let people = try await insertUsers(store, ["ann", "bob", "cy", "dee"])
            let (ann, bob, cy, dee) = (people[0].id, people[1].id, people[2].id, people[3].id)
            #expect(try await store.read { try $0.lastSwipe(by: ann) } == nil)
            // All in one millisecond, and one with an earlier clock: order of saving decides.
            let onBob = StoredSwipe(userID: ann, targetID: bob, liked: true, createdAt: 50)
            let onCy = StoredSwipe(userID: ann, targetID: cy, liked: false, createdAt: 50)
            let onDee = StoredSwipe(userID: ann, targetID: dee, liked: true, createdAt: 40)
            try await store.write { writer in
                for swipe in [onBob, onCy, onDee] { try writer.saveSwipe(swipe) }
                try writer.saveSwipe(StoredSwipe(userID: bob, targetID: ann, liked: true, createdAt: 60))
            }
            #expect(try await store.read { try $0.swipe(by: ann, on: cy) } == onCy)
            #expect(try await store.read { try $0.swipe(by: cy, on: ann) } == nil)
            #expect(try await store.read { try $0.lastSwipe(by: ann) } == onDee)

            // Undo twice: newest first.
            try await store.write { try $0.deleteSwipe(by: ann, on: dee) }
            #expect(try await store.read { try $0.lastSwipe(by: ann) } == onCy)
            try await store.write { try $0.deleteSwipe(by: ann, on: cy) }
            #expect(try await store.read { try $0.lastSwipe(by: ann) } == onBob)

            // Swiping someone again replaces the swipe and makes it the newest.
            try await store.write { writer in
                try writer.saveSwipe(onCy)
                try writer.saveSwipe(StoredSwipe(userID: ann, targetID: bob, liked: false, createdAt: 70))
            }
            #expect(try await store.read { try $0.swipe(by: ann, on: bob) }?.liked == false)
            #expect(try await store.read { try $0.lastSwipe(by: ann) }?.targetID == bob)
            try await store.write { try $0.deleteSwipe(by: ann, on: bob) }
            #expect(try await store.read { try $0.lastSwipe(by: ann) } == onCy)
        }
    }

    @Test(arguments: StoreBackend.available) func discoverLeavesOutSelfFriendsBlocksEitherWayAndSwipedPeople(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let names = ["me", "friend", "iBlocked", "blocksMe", "liked", "passed", "likedMe", "fresh1", "fresh2", "fresh3"]
            let people = try await insertUsers(store, names)
            @Sendable func id(_ name: String) -> UserID { people[names.firstIndex(of: name) ?? 0].id }
            let me = id("me")
            let chat = try await insertDirectConversation(store, me, id("friend"))
            try await store.write { writer in
                try writer.insertFriendship(me, id("friend"), conversation: chat.id, at: 1)
                try writer.insertBlock(by: me, target: id("iBlocked"), at: 1)
                try writer.insertBlock(by: id("blocksMe"), target: me, at: 1)
                try writer.saveSwipe(StoredSwipe(userID: me, targetID: id("liked"), liked: true, createdAt: 1))
                try writer.saveSwipe(StoredSwipe(userID: me, targetID: id("passed"), liked: false, createdAt: 1))
                // What others did among themselves, or to me, changes nothing.
                try writer.saveSwipe(StoredSwipe(userID: id("likedMe"), targetID: me, liked: true, createdAt: 1))
                try writer.insertBlock(by: id("fresh1"), target: id("fresh2"), at: 1)
            }

            let all = try await store.read { try $0.discoverCandidates(for: me, after: nil, limit: 100) }
            #expect(all.map(\.username) == ["likedMe", "fresh1", "fresh2", "fresh3"])

            // Paging: ascending id after the cursor, at most `limit`.
            let first = try await store.read { try $0.discoverCandidates(for: me, after: nil, limit: 2) }
            #expect(first.map(\.username) == ["likedMe", "fresh1"])
            let cursor = try #require(first.last?.id)
            let second = try await store.read { try $0.discoverCandidates(for: me, after: cursor, limit: 2) }
            #expect(second.map(\.username) == ["fresh2", "fresh3"])
            let third = try await store.read { try $0.discoverCandidates(for: me, after: second.last?.id, limit: 2) }
            #expect(third.isEmpty)
            #expect(try await store.read { try $0.discoverCandidates(for: me, after: nil, limit: 0) }.isEmpty)

            // From the friend's side, "me" is a friend and left out too.
            let friendsView = try await store.read { try $0.discoverCandidates(for: id("friend"), after: nil, limit: 100) }
            #expect(!friendsView.contains { $0.id == me })
            #expect(!friendsView.contains { $0.id == id("friend") })
        }
    }

    /// A pending request without a greeting.
    private func request(_ id: String, _ from: UserID, _ to: UserID, at time: Int64) -> StoredFriendRequest {
        StoredFriendRequest(id: id, fromID: from, toID: to, greeting: nil, createdAt: time)
    }
}
