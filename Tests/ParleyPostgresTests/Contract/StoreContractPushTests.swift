import ParleyCore
import ParleyProtocol
import Testing

/// Push targets, conversation mutes and the notification preview setting.
@Suite struct StoreContractPushTests {
    private func session(_ id: String, of user: UserID, token: UInt8) -> StoredSession {
        StoredSession(id: id, userID: user, tokenHash: Array(repeating: token, count: 32), createdAt: 1, lastSeenAt: 1, userAgent: nil)
    }

    private func web(_ id: String, of user: UserID, session: String, endpoint: String, at time: Int64) -> StoredPushTarget {
        StoredPushTarget(id: id, userID: user, sessionID: session, kind: .webPush, endpoint: endpoint,
                         p256dh: Array(repeating: 4, count: 65), auth: Array(repeating: 7, count: 16), createdAt: time)
    }

    @Test(arguments: StoreBackend.available) func targetsReadBackAndEndWithTheirSession(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let mei = try await store.write { try $0.insertUser(newUser("mei")) }
            let bob = try await store.write { try $0.insertUser(newUser("bob")) }
            let laptop = web("t1", of: mei.id, session: "s-laptop", endpoint: "https://push.example/a", at: 10)
            let phone = StoredPushTarget(id: "t2", userID: mei.id, sessionID: "s-phone", kind: .gateway,
                                         endpoint: "https://gw.example/_matrix/push/v1/notify", appID: "org.parley.ios",
                                         pushkey: "key-1", createdAt: 20)
            try await store.write { writer in
                try writer.insertSession(session("s-laptop", of: mei.id, token: 1))
                try writer.insertSession(session("s-phone", of: mei.id, token: 2))
                try writer.savePushTarget(laptop)
                try writer.savePushTarget(phone)
            }
            #expect(try await store.read { try $0.pushTargets(of: mei.id) } == [laptop, phone])
            #expect(try await store.read { try $0.pushTargets(of: bob.id) }.isEmpty)
            // Only its owner removes a target by id.
            #expect(try await store.write { try $0.deletePushTarget(id: "t1", of: bob.id) } == false)
            // Signing the phone out ends its registration, and only that one.
            #expect(try await store.write { try $0.deleteSession(id: "s-phone", userID: mei.id) })
            #expect(try await store.read { try $0.pushTargets(of: mei.id) } == [laptop])
            #expect(try await store.write { try $0.deletePushTarget(id: "t1", of: mei.id) } == true)
            #expect(try await store.read { try $0.pushTargets(of: mei.id) }.isEmpty)
        }
    }

    @Test(arguments: StoreBackend.available) func theSameEndpointRegisteredAgainReplacesTheOlder(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let mei = try await store.write { try $0.insertUser(newUser("mei")) }
            let bob = try await store.write { try $0.insertUser(newUser("bob")) }
            try await store.write { writer in
                try writer.insertSession(session("s-mei", of: mei.id, token: 1))
                try writer.insertSession(session("s-bob", of: bob.id, token: 2))
                try writer.savePushTarget(web("t1", of: mei.id, session: "s-mei", endpoint: "https://push.example/shared", at: 10))
            }
            // The browser is now signed in as bob: the endpoint is his, no longer mei's.
            let bobs = web("t2", of: bob.id, session: "s-bob", endpoint: "https://push.example/shared", at: 20)
            try await store.write { try $0.savePushTarget(bobs) }
            #expect(try await store.read { try $0.pushTargets(of: mei.id) }.isEmpty)
            #expect(try await store.read { try $0.pushTargets(of: bob.id) } == [bobs])
            // A push service's 410 removes it by address.
            try await store.write { try $0.deletePushTarget(kind: .webPush, address: "https://push.example/shared") }
            #expect(try await store.read { try $0.pushTargets(of: bob.id) }.isEmpty)
        }
    }

    @Test(arguments: StoreBackend.available) func allOfAUsersTargetsGoAtOnce(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let mei = try await store.write { try $0.insertUser(newUser("mei")) }
            let bob = try await store.write { try $0.insertUser(newUser("bob")) }
            let bobs = web("t3", of: bob.id, session: "s-bob", endpoint: "https://push.example/b", at: 1)
            try await store.write { writer in
                try writer.insertSession(session("s-mei", of: mei.id, token: 1))
                try writer.insertSession(session("s-bob", of: bob.id, token: 2))
                try writer.savePushTarget(web("t1", of: mei.id, session: "s-mei", endpoint: "https://push.example/1", at: 1))
                try writer.savePushTarget(web("t2", of: mei.id, session: "s-mei", endpoint: "https://push.example/2", at: 2))
                try writer.savePushTarget(bobs)
            }
            try await store.write { try $0.deletePushTargets(of: mei.id) }
            #expect(try await store.read { try $0.pushTargets(of: mei.id) }.isEmpty)
            #expect(try await store.read { try $0.pushTargets(of: bob.id) } == [bobs])
        }
    }

    @Test(arguments: StoreBackend.available) func mutesAndThePreviewSettingAreEachUsersOwn(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let mei = try await store.write { try $0.insertUser(newUser("mei")) }
            let bob = try await store.write { try $0.insertUser(newUser("bob")) }
            let group = try await store.write { try $0.insertConversation(NewConversation(kind: .group, name: "Lobby", ownerID: mei.id, createdAt: 1)) }
            let other = try await store.write { try $0.insertConversation(NewConversation(kind: .group, name: "Garden", ownerID: mei.id, createdAt: 2)) }
            #expect(try await store.read { try $0.conversationMutes(of: mei.id) }.isEmpty)
            try await store.write { writer in
                try writer.setConversationMute(ConversationMute(until: 5_000, mentionsOnly: true), of: mei.id, conversation: group.id)
                try writer.setConversationMute(ConversationMute(), of: mei.id, conversation: other.id)
            }
            #expect(try await store.read { try $0.conversationMutes(of: mei.id) }
                    == [group.id: ConversationMute(until: 5_000, mentionsOnly: true), other.id: ConversationMute()])
            // Muting again replaces; unmuting removes one.
            try await store.write { writer in
                try writer.setConversationMute(ConversationMute(until: nil, mentionsOnly: false), of: mei.id, conversation: group.id)
                try writer.deleteConversationMute(of: mei.id, conversation: other.id)
                try writer.deleteConversationMute(of: bob.id, conversation: other.id)
            }
            #expect(try await store.read { try $0.conversationMutes(of: mei.id) } == [group.id: ConversationMute()])
            #expect(try await store.read { try $0.conversationMutes(of: bob.id) }.isEmpty)

            #expect(try await store.read { try $0.notificationPreview(of: mei.id) } == nil)
            try await store.write { try $0.setNotificationPreview(.sender, of: mei.id) }
            try await store.write { try $0.setNotificationPreview(.nothing, of: mei.id) }
            #expect(try await store.read { try $0.notificationPreview(of: mei.id) } == .nothing)
            #expect(try await store.read { try $0.notificationPreview(of: bob.id) } == nil)
        }
    }
}
