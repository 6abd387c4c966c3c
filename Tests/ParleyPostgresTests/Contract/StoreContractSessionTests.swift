import ParleyCore
import ParleyProtocol
import Testing

/// Sessions, media records and SMS challenges.
@Suite struct StoreContractSessionTests {
    private func session(_ id: String, of user: UserID, token: UInt8, at time: Int64 = 1_000,
                         agent: String? = nil) -> StoredSession {
        StoredSession(id: id, userID: user, tokenHash: Array(repeating: token, count: 32), createdAt: time,
                      lastSeenAt: time, userAgent: agent)
    }

    @Test(arguments: StoreBackend.available) func sessionsReadBackByTokenHashAndByUser(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let mei = try await store.write { try $0.insertUser(newUser("mei")) }
            let bob = try await store.write { try $0.insertUser(newUser("bob")) }
            let phone = session("s-phone", of: mei.id, token: 1, agent: "Parley/1.0 (iPhone; 日本語) \"quoted\"")
            let laptop = session("s-laptop", of: mei.id, token: 2, at: 2_000)
            try await store.write { writer in
                try writer.insertSession(phone)
                try writer.insertSession(laptop)
            }
            #expect(try await store.read { try $0.session(tokenHash: phone.tokenHash) } == phone)
            #expect(try await store.read { try $0.session(tokenHash: laptop.tokenHash) } == laptop)
            #expect(try await store.read { try $0.session(tokenHash: Array(repeating: 9, count: 32)) } == nil)
            #expect(try await store.read { try $0.session(tokenHash: []) } == nil)
            let meis = try await store.read { try $0.sessions(of: mei.id) }
            #expect(meis.sorted { $0.id < $1.id } == [laptop, phone])
            #expect(try await store.read { try $0.sessions(of: bob.id) }.isEmpty)
        }
    }

    @Test(arguments: StoreBackend.available) func aSessionIsDeletedOnlyByItsOwnUser(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let mei = try await store.write { try $0.insertUser(newUser("mei")) }
            let bob = try await store.write { try $0.insertUser(newUser("bob")) }
            let phone = session("s-phone", of: mei.id, token: 1)
            try await store.write { try $0.insertSession(phone) }

            #expect(try await store.write { try $0.deleteSession(id: phone.id, userID: bob.id) } == false)
            #expect(try await store.read { try $0.session(tokenHash: phone.tokenHash) } == phone)
            #expect(try await store.write { try $0.deleteSession(id: phone.id, userID: mei.id) } == true)
            #expect(try await store.read { try $0.session(tokenHash: phone.tokenHash) } == nil)
            #expect(try await store.write { try $0.deleteSession(id: phone.id, userID: mei.id) } == false)
            #expect(try await store.write { try $0.deleteSession(id: "never-existed", userID: mei.id) } == false)
        }
    }

    @Test(arguments: StoreBackend.available) func touchingMovesLastSeenForwardOnly(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let mei = try await store.write { try $0.insertUser(newUser("mei")) }
            let phone = session("s-phone", of: mei.id, token: 1, at: 1_000)
            try await store.write { try $0.insertSession(phone) }
            try await store.write { try $0.touchSession(id: phone.id, at: 5_000, address: nil) }
            try await store.write { try $0.touchSession(id: phone.id, at: 3_000, address: nil) }
            try await store.write { try $0.touchSession(id: "never-existed", at: 9_000, address: nil) }
            let touched = try await store.read { try $0.session(tokenHash: phone.tokenHash) }
            #expect(touched?.lastSeenAt == 5_000)
            #expect(touched?.createdAt == 1_000)
        }
    }

    @Test(arguments: StoreBackend.available) func sessionsNeedAnExistingUserAndAUniqueToken(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let mei = try await store.write { try $0.insertUser(newUser("mei")) }
            let error = await #expect(throws: StoreError.self) {
                try await store.write { try $0.insertSession(self.session("s-orphan", of: UserID(9_999), token: 1)) }
            }
            guard case .failure = error else {
                Issue.record("expected a failure, got \(String(describing: error))")
                return
            }
            try await store.write { try $0.insertSession(self.session("s-one", of: mei.id, token: 7)) }
            await #expect(throws: StoreError.self) {
                try await store.write { try $0.insertSession(self.session("s-two", of: mei.id, token: 7)) }
            }
            #expect(try await store.read { try $0.sessions(of: mei.id) }.map(\.id) == ["s-one"])
        }
    }

    @Test(arguments: StoreBackend.available) func mediaRecordsRoundTrip(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let mei = try await store.write { try $0.insertUser(newUser("mei")) }
            let records = ImageType.allCases.enumerated().map { index, type in
                StoredMedia(id: "m-\(type.rawValue)", ownerID: mei.id, type: type, width: 640 + index,
                            height: 480, size: 5_000_000 + index, createdAt: 1_700_000_000_123)
            }
            try await store.write { writer in
                for record in records { try writer.insertMedia(record) }
            }
            for record in records {
                #expect(try await store.read { try $0.media(id: record.id) } == record)
            }
            #expect(try await store.read { try $0.media(id: "m-missing") } == nil)
            await #expect(throws: StoreError.self) {
                try await store.write { try $0.insertMedia(StoredMedia(id: "m-orphan", ownerID: UserID(9_999), type: .gif,
                                                                       width: 1, height: 1, size: 1, createdAt: 1)) }
            }
            await #expect(throws: StoreError.self) {
                try await store.write { try $0.insertMedia(records[0]) }
            }
        }
    }

    @Test(arguments: StoreBackend.available) func smsChallengesAreSavedReplacedAndDeleted(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let first = SMSChallenge(phone: "+8613800000000", codeHash: [0, 1, 2, 255], sentAt: 1_000,
                                     expiresAt: 301_000, failedAttempts: 0)
            try await store.write { try $0.saveSMSChallenge(first) }
            #expect(try await store.read { try $0.smsChallenge(phone: first.phone) } == first)

            var guessed = first
            guessed.failedAttempts = 2
            try await store.write { [guessed] in try $0.saveSMSChallenge(guessed) }
            #expect(try await store.read { try $0.smsChallenge(phone: first.phone) } == guessed)

            let resent = SMSChallenge(phone: first.phone, codeHash: Array(repeating: 7, count: 32), sentAt: 90_000,
                                      expiresAt: 390_000, failedAttempts: 0)
            try await store.write { try $0.saveSMSChallenge(resent) }
            #expect(try await store.read { try $0.smsChallenge(phone: first.phone) } == resent)

            #expect(try await store.read { try $0.smsChallenge(phone: "+10000000000") } == nil)
            try await store.write { try $0.deleteSMSChallenge(phone: first.phone) }
            try await store.write { try $0.deleteSMSChallenge(phone: "+10000000000") }
            #expect(try await store.read { try $0.smsChallenge(phone: first.phone) } == nil)
        }
    }

    @Test(arguments: StoreBackend.available) func smsSendsAreCountedPerNumberAndForgottenWhenOld(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            let a = "+8613800000001", b = "+8613800000002"
            try await store.write { try $0.recordSMSSend(phone: a, at: 1_000, forgetBefore: 0) }
            try await store.write { try $0.recordSMSSend(phone: b, at: 2_000, forgetBefore: 0) }
            try await store.write { try $0.recordSMSSend(phone: a, at: 3_000, forgetBefore: 0) }
            #expect(try await store.read { try $0.smsSendTimes(phone: a, since: 0) } == [1_000, 3_000])
            // `since` is exclusive.
            #expect(try await store.read { try $0.smsSendTimes(phone: a, since: 1_000) } == [3_000])
            #expect(try await store.read { try $0.smsSendTimes(phone: b, since: 0) } == [2_000])
            // A new send forgets every number's sends at or before the cutoff.
            try await store.write { try $0.recordSMSSend(phone: a, at: 9_000, forgetBefore: 2_000) }
            #expect(try await store.read { try $0.smsSendTimes(phone: a, since: 0) } == [3_000, 9_000])
            #expect(try await store.read { try $0.smsSendTimes(phone: b, since: 0) } == [])
        }
    }
}
