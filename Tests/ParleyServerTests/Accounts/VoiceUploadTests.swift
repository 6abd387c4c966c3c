import Foundation
import TestSupport
import Testing
@testable import ParleyServer

/// Voice recordings through `POST /v1/media`: Opus in WebM or Ogg is told from the bytes and
/// served back with its type; the byte and length limits (`--max-voice-bytes`,
/// `--max-voice-seconds`) and other audio are refused with their codes.
@Suite(.serialized) struct VoiceUploadTests {
    @Test func opusInWebMAndOggIsAcceptedAndServedWithItsType() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let (token, _) = try await server.register("speaker")
        for (bytes, type) in [(VoiceRecordings.webm(milliseconds: 4_000), "audio/webm"), (VoiceRecordings.ogg(milliseconds: 4_000), "audio/ogg")] {
            let reply = try await server.request("POST", "/v1/media", token: token, raw: Data(bytes))
            #expect(reply.status == 201 && reply.json["type"] as? String == type)
            #expect(reply.json["width"] as? Int == 0 && reply.json["size"] as? Int == bytes.count)
            let url = try #require(reply.json["url"] as? String)
            let fetched = try await server.request("GET", url, token: token)
            #expect(fetched.status == 200 && fetched.headers["content-type"] == type && fetched.body == Data(bytes))
        }
    }

    @Test func tooLongTooLargeOrNotOpusIsRefused() async throws {
        let server = try TestServer { $0.maxVoiceSeconds = 10; $0.maxVoiceBytes = 4_096 }
        defer { server.stop() }
        let (token, _) = try await server.register("speaker")
        let upload = { (bytes: [UInt8]) in try await server.request("POST", "/v1/media", token: token, raw: Data(bytes)) }
        #expect(try await upload(VoiceRecordings.ogg(milliseconds: 10_000)).status == 201)
        let long = try await upload(VoiceRecordings.ogg(milliseconds: 10_500))
        #expect(long.status == 413 && long.errorCode == "payload_too_large")
        // 9 s of WebM blocks is over 4 KiB here.
        let large = try await upload(VoiceRecordings.webm(milliseconds: 9_000))
        #expect(large.status == 413 && large.errorCode == "payload_too_large")
        let vorbis = try await upload(VoiceRecordings.webm(milliseconds: 1_000, codec: "A_VORBIS"))
        #expect(vorbis.status == 415 && vorbis.errorCode == "unsupported_media_type")
    }
}
