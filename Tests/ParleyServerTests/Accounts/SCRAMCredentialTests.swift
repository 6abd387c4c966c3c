import Foundation
import ParleyCore
import ParleyNet
import ParleyProtocol
import ParleySQLite
import ParleyXMPP
import Testing
@testable import ParleyServer

/// SCRAM credentials are kept for every password the server sees, and SCRAM sign-ins share the
/// password sign-in's failure limits.
@Suite(.serialized) struct SCRAMCredentialTests {
    final class Fixture {
        let directory = NSTemporaryDirectory() + "parley-scram-" + UUID().uuidString
        let store: SQLiteStore
        let pool = BlockingPool(threadCount: 2)
        let accounts: AccountService

        init(loginFailuresPerAccount: Int = 10) throws {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            store = try SQLiteStore(path: directory + "/db.sqlite")
            let hasher = try PasswordHasher(opsLimit: PasswordHasher.minimumOpsLimit, memoryLimit: PasswordHasher.minimumMemoryLimit)
            var rules = AccountRules()
            rules.loginFailuresPerAccount = loginFailuresPerAccount
            accounts = AccountService(store: store, passwords: SodiumPasswords(hasher: hasher), secrets: SodiumSecrets(),
                                      sms: CapturingSMS(), blocking: PoolExecutor(pool: pool), rules: rules,
                                      clock: { Int64(Date().timeIntervalSince1970 * 1000) }, scram: SCRAMCredentialDeriver())
        }

        func credentials(_ user: UserID) async throws -> [StoredSCRAMCredential] {
            try await store.read { try $0.scramCredentials(of: user) }
        }

        deinit {
            store.close()
            pool.shutdown()
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    /// The stored keys are the ones the password gives with the stored salt and count.
    func expectMatches(_ credentials: [StoredSCRAMCredential], password: String) {
        #expect(credentials.map(\.mechanism).sorted() == ["SCRAM-SHA-1", "SCRAM-SHA-256"])
        for credential in credentials {
            let keys = SCRAMHash(rawValue: credential.mechanism)!.credential(password: password, salt: credential.salt,
                                                                              iterations: credential.iterations)
            #expect(keys.storedKey == credential.storedKey && keys.serverKey == credential.serverKey)
        }
    }

    @Test func registrationStoresCredentialsForEachMechanism() async throws {
        let fixture = try Fixture()
        let mei = try await fixture.accounts.register(username: "mei", password: "pencil pencil", userAgent: nil).user.profile.id
        expectMatches(try await fixture.credentials(mei), password: "pencil pencil")
        let candidate = try #require(try await fixture.accounts.scramCredential(username: "MEI", mechanism: "SCRAM-SHA-256", clientAddress: "a"))
        #expect(candidate.account.profile.id == mei)
    }

    @Test func anOlderAccountGetsCredentialsAtItsNextPasswordSignIn() async throws {
        let fixture = try Fixture()
        let mei = try await fixture.accounts.register(username: "mei", password: "pencil pencil", userAgent: nil).user.profile.id
        // As an account created before credentials were kept.
        try await fixture.store.write { try $0.replaceSCRAMCredentials(of: mei, with: []) }
        #expect(try await fixture.accounts.scramCredential(username: "mei", mechanism: "SCRAM-SHA-1", clientAddress: "a") == nil)

        await #expect(throws: ProtocolError.self) {
            try await fixture.accounts.login(username: "mei", password: "wrong password", userAgent: nil)
        }
        #expect(try await fixture.credentials(mei).isEmpty)

        _ = try await fixture.accounts.login(username: "mei", password: "pencil pencil", userAgent: nil)
        expectMatches(try await fixture.credentials(mei), password: "pencil pencil")

        // XMPP's PLAIN goes the same way.
        try await fixture.store.write { try $0.replaceSCRAMCredentials(of: mei, with: []) }
        let account = try await fixture.accounts.checkPassword(username: "mei", password: "pencil pencil", clientAddress: "a")
        #expect(account.profile.id == mei)
        expectMatches(try await fixture.credentials(mei), password: "pencil pencil")
    }

    @Test func failedSCRAMProofsCountTowardTheSignInLimit() async throws {
        let fixture = try Fixture(loginFailuresPerAccount: 3)
        _ = try await fixture.accounts.register(username: "mei", password: "pencil pencil", userAgent: nil)
        for _ in 0..<3 { fixture.accounts.recordFailedSignIn(username: "Mei", clientAddress: "a") }
        await #expect(throws: ProtocolError.self) {
            try await fixture.accounts.scramCredential(username: "mei", mechanism: "SCRAM-SHA-256", clientAddress: "b")
        }
        // The password path is refused too: one limit for both.
        do {
            _ = try await fixture.accounts.checkPassword(username: "mei", password: "pencil pencil", clientAddress: "b")
            Issue.record("expected rate_limited")
        } catch {
            #expect(error.code == .rateLimited)
        }
    }

    @Test func aSuspendedAccountGetsItsCredentialWithTheRefusalForAfterTheProof() async throws {
        let fixture = try Fixture()
        let mei = try await fixture.accounts.register(username: "mei", password: "pencil pencil", userAgent: nil).user.profile.id
        try await fixture.store.write {
            try $0.saveSuspension(Suspension(reason: "spam", until: nil, since: 1, by: nil), of: mei)
        }
        // The first step looks like any account's: the salt and count are the real ones.
        let candidate = try #require(try await fixture.accounts.scramCredential(username: "mei", mechanism: "SCRAM-SHA-256", clientAddress: "a"))
        #expect(candidate.account.profile.id == mei)
        #expect(candidate.refusal?.code == .suspended)
        _ = try await fixture.store.write { try $0.deleteSuspension(of: mei) }
        let lifted = try #require(try await fixture.accounts.scramCredential(username: "mei", mechanism: "SCRAM-SHA-256", clientAddress: "a"))
        #expect(lifted.refusal == nil)
    }

    @Test func unknownUsersHaveNoCredential() async throws {
        let fixture = try Fixture()
        #expect(try await fixture.accounts.scramCredential(username: "nobody", mechanism: "SCRAM-SHA-256", clientAddress: "a") == nil)
    }
}
