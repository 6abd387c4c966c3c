import Foundation
import ParleyKit
import ParleyProtocol
import Testing

@Suite("ParleyClient: the account's security against a real server", .serialized)
struct ParleyClientSecurityTests {
    @Test("devices are listed with their names, other devices signed out, the password changed")
    func devicesAndPassword() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let name = KitHarness.username("dev")
        let laptop = try KitHarness.client(server)
        let phone = try KitHarness.client(server)
        try await laptop.register(username: name, password: "password123")
        try await phone.login(username: name, password: "password123")

        let devices = try await laptop.signedInDevices()
        #expect(devices.count == 2)
        // The client's User-Agent names the device when the client gives no name.
        #expect(devices.allSatisfy { $0.deviceName == "ParleyKitTests" })
        #expect(devices.filter(\.current).count == 1)
        #expect(devices.allSatisfy { $0.lastAddress == "127.0.0.1" })

        #expect(try await laptop.signOutOtherDevices() == 1)
        #expect(try await laptop.cachedDevices().count == 1)
        do {
            _ = try await phone.signedInDevices()
            Issue.record("a signed-out device still listed the devices")
        } catch {
            #expect(error.code == .unauthorized)
        }

        do {
            try await laptop.changePassword(current: "wrong-password", new: "second-password")
            Issue.record("a wrong current password was accepted")
        } catch {
            #expect(error.code == .invalidCredentials)
        }
        #expect(try await laptop.changePassword(current: "password123", new: "second-password") == 0)
        let again = try KitHarness.client(server)
        try await again.login(username: name, password: "second-password")
        await laptop.stop()
        await phone.stop()
        await again.stop()
    }

    @Test("an export is built and downloaded; a deleted account is signed out and refused")
    func exportAndDeletion() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try KitHarness.client(server)
        try await client.register(username: KitHarness.username("leaver"), password: "password123")
        let started = try await client.startExport()
        #expect(started.status == "building")
        var archive: Data?
        for _ in 0..<100 where archive == nil {
            archive = try await client.export().archive
            if archive == nil { try await Task.sleep(for: .milliseconds(100)) }
        }
        let zip = try #require(archive)
        #expect(zip.starts(with: [0x50, 0x4B, 0x03, 0x04]))
        #expect(zip.range(of: Data("account.json".utf8)) != nil)

        do {
            try await client.deleteAccount(password: "not-the-password")
            Issue.record("deleted with a wrong password")
        } catch {
            #expect(error.code == .invalidCredentials)
        }
        try await client.deleteAccount(password: "password123")
        await #expect(throws: ParleyError.self) { try await client.signedInDevices() }
        await client.stop()
    }
}
