import Foundation
import ParleyNet
import Testing
@testable import ParleyServer

@Suite struct VAPIDKeyTests {
    static func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "vapid-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func isMadeOnceAndKeptPrivate() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try VAPIDKey.load(from: directory)
        let second = try VAPIDKey.load(from: directory)
        #expect(first.publicKeyText == second.publicKeyText)
        #expect(first.key.publicKey.count == 65)
        let mode = try FileManager.default.attributesOfItem(atPath: directory + "/" + VAPIDKey.fileName)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func aDamagedFileIsRefusedNotReplaced() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/" + VAPIDKey.fileName
        FileManager.default.createFile(atPath: path, contents: Data([1, 2, 3]))
        #expect(throws: ConfigurationError.self) { try VAPIDKey.load(from: directory) }
        #expect(FileManager.default.contents(atPath: path) == Data([1, 2, 3]))
    }

    @Test func theTokenIsASignedJWTForTheAudience() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let vapid = try VAPIDKey.load(from: directory)
        let header = try vapid.authorization(audience: "https://push.example.net", expiresAt: 1_900_000_000, subject: "mailto:ops@example.org")
        #expect(header.hasPrefix("vapid t="))
        let parts = header.dropFirst("vapid t=".count).split(separator: ",", maxSplits: 1)
        #expect(parts.count == 2)
        #expect(parts[1].trimmingCharacters(in: .whitespaces) == "k=" + vapid.publicKeyText)
        let token = parts[0].split(separator: ".")
        #expect(token.count == 3)
        let claims = try JSONSerialization.jsonObject(with: Data(try #require(Base64URL.decode(token[1])))) as? [String: Any]
        #expect(claims?["aud"] as? String == "https://push.example.net")
        #expect(claims?["exp"] as? Int == 1_900_000_000)
        #expect(claims?["sub"] as? String == "mailto:ops@example.org")
        let signature = try #require(Base64URL.decode(token[2]))
        let signed = Array("\(token[0]).\(token[1])".utf8)
        #expect(vapid.key.verifyES256(signature, of: signed))
        #expect(!vapid.key.verifyES256(signature, of: signed + [0]))
    }
}
