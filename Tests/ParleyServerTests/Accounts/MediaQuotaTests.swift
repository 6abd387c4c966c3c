import Foundation
import ParleyCore
import ParleyNet
import ParleyProtocol
import ParleySQLite
import Testing
@testable import ParleyServer

/// Uploads are bounded per user (a day's bytes, bytes held, uploads a minute), and uploads
/// nobody used are removed after a grace period.
@Suite(.serialized) struct MediaQuotaTests {
    /// A PNG of about `size` bytes (the sniffer reads the header; the rest is padding).
    static func png(size: Int) -> Data {
        var image = MediaAPITests.png(width: 2, height: 2)
        image.append(Data(repeating: 0, count: max(0, size - image.count)))
        return image
    }

    @Test func aDaysBytesAreBoundedPerUserWithRetryAfter() async throws {
        let server = try TestServer { $0.mediaQuotaBytesPerDay = 10_000; $0.mediaQuotaBytes = 1 << 30 }
        defer { server.stop() }
        let (token, _) = try await server.register("uploader")
        let (other, _) = try await server.register("neighbour")
        for _ in 0..<3 {
            #expect(try await server.request("POST", "/v1/media", token: token, raw: Self.png(size: 3000)).status == 201)
        }
        let over = try await server.request("POST", "/v1/media", token: token, raw: Self.png(size: 3000))
        #expect(over.status == 429 && over.errorCode == "quota_exceeded")
        let wait = try #require(over.headers["retry-after"].flatMap { Int($0) })
        #expect(wait > 86_000 && wait <= 86_400, "until the first upload of the day leaves the window")
        // Another user's quota is their own.
        #expect(try await server.request("POST", "/v1/media", token: other, raw: Self.png(size: 3000)).status == 201)
        // Nothing of the refused upload was kept.
        let files = try FileManager.default.contentsOfDirectory(atPath: server.dataDirectory + "/media")
        #expect(files.count == 4)
    }

    @Test func bytesHeldAndUploadsAMinuteAreBounded() async throws {
        let server = try TestServer { $0.mediaQuotaBytes = 5_000; $0.mediaUploadsPerMinute = 3 }
        defer { server.stop() }
        let (token, _) = try await server.register("uploader")
        #expect(try await server.request("POST", "/v1/media", token: token, raw: Self.png(size: 3000)).status == 201)
        let held = try await server.request("POST", "/v1/media", token: token, raw: Self.png(size: 3000))
        #expect(held.status == 429 && held.errorCode == "quota_exceeded")
        #expect(try await server.request("POST", "/v1/media", token: token, raw: Self.png(size: 100)).status == 201)
        let fast = try await server.request("POST", "/v1/media", token: token, raw: Self.png(size: 100))
        #expect(fast.status == 429 && fast.errorCode == "rate_limited" && fast.headers["retry-after"] != nil)
    }

    @Test func uploadsNobodyUsedAreRemovedAfterTheGracePeriodAndUsedOnesStay() async throws {
        let directory = NSTemporaryDirectory() + "parley-media-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let store = try SQLiteStore(path: directory + "/parley.sqlite")
        defer { store.close() }
        let pool = BlockingPool(threadCount: 1)
        defer { pool.shutdown() }
        let clock = ManualClock()
        var rules = MediaRules()
        rules.orphanGraceMillis = 3_600_000
        let files = try MediaDirectory(path: directory + "/media")
        let media = MediaService(store: store, files: files, secrets: SodiumSecrets(), blocking: PoolExecutor(pool: pool),
                                 rules: rules, clock: { clock.now })
        let hasher = try PasswordHasher(opsLimit: PasswordHasher.minimumOpsLimit, memoryLimit: PasswordHasher.minimumMemoryLimit)
        let accounts = AccountService(store: store, passwords: SodiumPasswords(hasher: hasher), secrets: SodiumSecrets(), sms: CapturingSMS(),
                                      blocking: PoolExecutor(pool: pool), clock: { clock.now })
        let owner = try await store.write { try $0.insertUser(NewUser(username: "mei", passwordHash: nil, phone: nil, createdAt: 1)) }.id
        let unused = try await media.upload(Array(Self.png(size: 200)), owner: owner)
        let avatar = try await media.upload(Array(Self.png(size: 200)), owner: owner)
        _ = try await accounts.updateProfile(of: owner, with: ProfileUpdate(avatar: .set(avatar.url)))

        clock.advance(seconds: 3_599)
        #expect(try await media.removeUnused() == 0, "within the grace period")
        clock.advance(seconds: 2)
        #expect(try await media.removeUnused() == 1)
        #expect(try await store.read { try $0.media(id: unused.id) } == nil)
        #expect(try files.load(id: unused.id) == nil)
        #expect(try files.load(id: avatar.id) != nil, "an avatar's upload stays")
        #expect(try await media.removeUnused() == 0)
    }
}
