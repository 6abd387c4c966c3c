import Foundation
import ParleyCore
import Testing
@testable import ParleyServer

/// `GET /v1/limits` tells clients the limits the server runs with, whatever they were set to.
@Suite(.serialized) struct LimitsRouteTests {
    @Test func theLimitsAreTheServersOwnSettingsAndNeedNoToken() async throws {
        let server = try TestServer {
            $0.maxVoiceSeconds = 7
            $0.maxVoiceBytes = 65_536
            $0.maxFileBytes = 1_000_000
            $0.maxMediaBytes = 200_000
            $0.textLimits[.text].bytes = 900
            $0.editWindowSeconds = 60
            $0.recallWindowSeconds = 30
        }
        defer { server.stop() }
        let reply = try await server.request("GET", "/v1/limits")
        #expect(reply.status == 200)
        let json = reply.json
        #expect(json["maxVoiceSeconds"] as? Int == 7)
        #expect(json["maxVoiceBytes"] as? Int == 65_536)
        #expect(json["maxFileBytes"] as? Int == 1_000_000)
        #expect(json["maxImageBytes"] as? Int == 200_000)
        #expect(json["maxTextBytes"] as? Int == 900)
        #expect(json["maxTextCharacters"] as? Int == ServerConfiguration().textLimits[.text].maxCharacters)
        #expect(json["editWindowSeconds"] as? Int == 60)
        #expect(json["recallWindowSeconds"] as? Int == 30)
    }
}
