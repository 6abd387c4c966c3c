import ParleyCore
import ParleyProtocol
import Testing

/// Sessions as devices: their names and addresses, and signing several out at once.
@Suite struct StoreContractDeviceTests {
    private func session(_ id: String, of user: UserID, token: UInt8, name: String? = nil,
                         address: String? = nil) -> StoredSession {
        StoredSession(id: id, userID: user, tokenHash: Array(repeating: token, count: 32), createdAt: 1_000,
                      lastSeenAt: 1_000, userAgent: "agent", deviceName: name, lastAddress: address)
    }

    @Test(arguments: StoreBackend.available) func deviceNameAndAddressRoundTripAndTouchRecordsTheAddress(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let mei = try await store.write { try $0.insertUser(newUser("mei")) }
            let phone = session("s-phone", of: mei.id, token: 1, name: "Mei's phone 📱", address: "192.0.2.1")
            let bare = session("s-bare", of: mei.id, token: 2)
            try await store.write { writer in
                try writer.insertSession(phone)
                try writer.insertSession(bare)
            }
            #expect(try await store.read { try $0.session(tokenHash: phone.tokenHash) } == phone)
            #expect(try await store.read { try $0.session(tokenHash: bare.tokenHash) } == bare)

            try await store.write { try $0.touchSession(id: phone.id, at: 2_000, address: "2001:db8::7") }
            var touched = try #require(try await store.read { try $0.session(tokenHash: phone.tokenHash) })
            #expect(touched.lastAddress == "2001:db8::7" && touched.lastSeenAt == 2_000)
            // No address keeps the one recorded.
            try await store.write { try $0.touchSession(id: phone.id, at: 3_000, address: nil) }
            touched = try #require(try await store.read { try $0.session(tokenHash: phone.tokenHash) })
            #expect(touched.lastAddress == "2001:db8::7" && touched.lastSeenAt == 3_000)
            #expect(touched.deviceName == "Mei's phone 📱")
        }
    }

    @Test(arguments: StoreBackend.available) func deletingSessionsKeepsTheNamedOneAndOtherUsers(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let mei = try await store.write { try $0.insertUser(newUser("mei")) }
            let bob = try await store.write { try $0.insertUser(newUser("bob")) }
            try await store.write { writer in
                try writer.insertSession(self.session("m-1", of: mei.id, token: 1))
                try writer.insertSession(self.session("m-2", of: mei.id, token: 2))
                try writer.insertSession(self.session("m-3", of: mei.id, token: 3))
                try writer.insertSession(self.session("b-1", of: bob.id, token: 4))
            }
            let others = try await store.write { try $0.deleteSessions(of: mei.id, keeping: "m-2") }
            #expect(others.sorted() == ["m-1", "m-3"])
            #expect(try await store.read { try $0.sessions(of: mei.id) }.map(\.id) == ["m-2"])
            #expect(try await store.read { try $0.sessions(of: bob.id) }.map(\.id) == ["b-1"])
            // Keeping a session of someone else keeps nothing of this user.
            let all = try await store.write { try $0.deleteSessions(of: mei.id, keeping: "b-1") }
            #expect(all == ["m-2"])
            #expect(try await store.write { try $0.deleteSessions(of: mei.id, keeping: nil) }.isEmpty)
            #expect(try await store.write { try $0.deleteSessions(of: bob.id, keeping: nil) } == ["b-1"])
            #expect(try await store.read { try $0.sessions(of: bob.id) }.isEmpty)
        }
    }
}
