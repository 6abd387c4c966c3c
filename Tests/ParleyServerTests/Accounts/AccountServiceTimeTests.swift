import Foundation
import ParleyCore
import ParleyNet
import ParleyProtocol
import ParleySQLite
import ParleySync
import Testing
@testable import ParleyServer

/// A clock tests move by hand.
final class ManualClock: Sendable {
    private let millis = PThreadMutex<Int64>(1_800_000_000_000)
    var now: Int64 { millis.withLock { $0 } }
    func advance(seconds: Int) { millis.withLock { $0 += Int64(seconds) * 1000 } }
}

/// Keeps the codes it is asked to send.
final class CapturingSMS: SMSSending {
    private let sent = PThreadMutex<[(String, String)]>([])
    var last: (phone: String, code: String)? { sent.withLock { $0.last } }
    func send(phone: String, code: String) async throws { sent.withLock { $0.append((phone, code)) } }
}

/// Time-dependent account rules, on the real store with a clock the test controls.
@Suite(.serialized) struct AccountServiceTimeTests {
    final class Fixture {
        let directory = NSTemporaryDirectory() + "parley-clock-" + UUID().uuidString
        let store: SQLiteStore
        let pool = BlockingPool(threadCount: 2)
        let clock = ManualClock()
        let sms = CapturingSMS()
        let rules: AccountRules
        let passwords: SodiumPasswords
        let accounts: AccountService

        init(rules: AccountRules = AccountRules()) throws {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            store = try SQLiteStore(path: directory + "/db.sqlite")
            let hasher = try PasswordHasher(opsLimit: PasswordHasher.minimumOpsLimit, memoryLimit: PasswordHasher.minimumMemoryLimit)
            self.rules = rules
            passwords = SodiumPasswords(hasher: hasher)
            accounts = Self.accounts(store: store, passwords: passwords, sms: sms, pool: pool, rules: rules, clock: clock)
        }

        /// A fresh service on the same store: what a restart of the server leaves.
        func makeAccounts() -> AccountService {
            Self.accounts(store: store, passwords: passwords, sms: sms, pool: pool, rules: rules, clock: clock)
        }

        private static func accounts(store: SQLiteStore, passwords: SodiumPasswords, sms: CapturingSMS, pool: BlockingPool,
                                     rules: AccountRules, clock: ManualClock) -> AccountService {
            AccountService(store: store, passwords: passwords, secrets: SodiumSecrets(), sms: sms,
                           blocking: PoolExecutor(pool: pool), rules: rules, clock: { clock.now })
        }

        deinit {
            store.close()
            pool.shutdown()
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    @Test func codeExpiresAfterItsLifetime() async throws {
        let fixture = try Fixture()
        _ = try await fixture.accounts.requestSMSCode(phone: "13800138000", clientAddress: "127.0.0.1")
        let code = try #require(fixture.sms.last?.code)
        fixture.clock.advance(seconds: 601)
        await #expect(throws: ProtocolError(.codeExpired, "the code has expired; request a new one", field: "code")) {
            _ = try await fixture.accounts.verifySMSCode(phone: "13800138000", code: code, userAgent: nil)
        }
    }

    @Test func codeWorksJustBeforeExpiry() async throws {
        let fixture = try Fixture()
        _ = try await fixture.accounts.requestSMSCode(phone: "13800138000", clientAddress: "127.0.0.1")
        let code = try #require(fixture.sms.last?.code)
        fixture.clock.advance(seconds: 599)
        let result = try await fixture.accounts.verifySMSCode(phone: "13800138000", code: code, userAgent: nil)
        #expect(result.created)
    }

    @Test func resendIntervalAndDailyLimit() async throws {
        let fixture = try Fixture()
        let phone = "+4915112345678"
        _ = try await fixture.accounts.requestSMSCode(phone: phone, clientAddress: "10.0.0.1")
        fixture.clock.advance(seconds: 59)
        await #expect(throws: ProtocolError.self) { _ = try await fixture.accounts.requestSMSCode(phone: phone, clientAddress: "10.0.0.1") }
        fixture.clock.advance(seconds: 1)
        _ = try await fixture.accounts.requestSMSCode(phone: phone, clientAddress: "10.0.0.2")
        // Ten a day per number, whatever the address.
        for i in 3...10 {
            fixture.clock.advance(seconds: 60)
            _ = try await fixture.accounts.requestSMSCode(phone: phone, clientAddress: "10.0.1.\(i)")
        }
        fixture.clock.advance(seconds: 60)
        do {
            _ = try await fixture.accounts.requestSMSCode(phone: phone, clientAddress: "10.0.2.1")
            Issue.record("the eleventh code of the day was sent")
        } catch {
            #expect(error.code == .rateLimited)
            #expect((error.retryAfterSeconds ?? 0) > 3600)
        }
    }

    /// `--sms-per-phone-per-day` at its boundary: the configured number of codes a day, not one more.
    @Test func configuredDailyLimitPerPhone() async throws {
        var rules = AccountRules()
        rules.smsMaxPerPhonePerDay = 3
        let fixture = try Fixture(rules: rules)
        let phone = "+4915187654321"
        for i in 0..<3 {
            _ = try await fixture.accounts.requestSMSCode(phone: phone, clientAddress: "10.1.0.\(i)")
            fixture.clock.advance(seconds: 60)
        }
        await #expect(throws: ProtocolError.self) {
            _ = try await fixture.accounts.requestSMSCode(phone: phone, clientAddress: "10.1.1.1")
        }
        // The window slides: a day after the first code, one more may go.
        fixture.clock.advance(seconds: 86_400 - 180)
        _ = try await fixture.accounts.requestSMSCode(phone: phone, clientAddress: "10.1.1.2")
    }

    /// The daily count per number lives in the store: a new `AccountService` on the same store
    /// (what a restart makes) still refuses, with the wait until the oldest send is a day old.
    @Test func dailyLimitPerPhoneSurvivesARestart() async throws {
        var rules = AccountRules()
        rules.smsMaxPerPhonePerDay = 2
        let fixture = try Fixture(rules: rules)
        let phone = "+4915111223344"
        for _ in 0..<2 {
            _ = try await fixture.accounts.requestSMSCode(phone: phone, clientAddress: "10.2.0.1")
            fixture.clock.advance(seconds: 60)
        }
        let restarted = fixture.makeAccounts()
        do {
            _ = try await restarted.requestSMSCode(phone: phone, clientAddress: "10.2.0.2")
            Issue.record("a restart reset the daily limit")
        } catch {
            #expect(error.code == .rateLimited)
            #expect(error.retryAfterSeconds == 86_400 - 120)
        }
    }

    @Test func perAddressLimit() async throws {
        let fixture = try Fixture()
        for i in 0..<20 {
            _ = try await fixture.accounts.requestSMSCode(phone: "+49151000000\(String(format: "%02d", i))", clientAddress: "192.0.2.7")
        }
        do {
            _ = try await fixture.accounts.requestSMSCode(phone: "+4915100000099", clientAddress: "192.0.2.7")
            Issue.record("the 21st request from one address went through")
        } catch {
            #expect(error.code == .rateLimited)
        }
    }

    @Test func sessionLastSeenIsRefreshedAtMostEveryFiveMinutes() async throws {
        let fixture = try Fixture()
        let result = try await fixture.accounts.register(username: "clocky", password: "password123", userAgent: nil)
        let session = try await fixture.accounts.authenticate(token: result.token)
        let first = try await fixture.accounts.sessions(of: session).sessions[0].lastSeenAt
        fixture.clock.advance(seconds: 100)
        _ = try await fixture.accounts.authenticate(token: result.token)
        #expect(try await fixture.accounts.sessions(of: session).sessions[0].lastSeenAt == first)
        fixture.clock.advance(seconds: 250)
        _ = try await fixture.accounts.authenticate(token: result.token)
        #expect(try await fixture.accounts.sessions(of: session).sessions[0].lastSeenAt == first + 350_000)
    }
}
