import ParleyCore
import ParleyProtocol
import Testing
@testable import ParleyXMPP

@Suite struct UploadHandlerTests {
    private func request(size: Int) -> XMLElement {
        XMLElement("request", namespace: Namespace.httpUpload, ["filename": "cat.png", "size": String(size), "content-type": "image/png"])
    }

    @Test func aSlotHasAPutLinkWithItsTokenAndTheImagesLink() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let slot = try #require(try await fixture.answer("get", request(size: 1000), to: "upload.chat.test", me: alice,
                                                         context: fixture.context()))
        let put = try #require(slot.child("put")?["url"])
        let get = try #require(slot.child("get")?["url"])
        #expect(put.hasPrefix("https://chat.test/v1/uploads/"))
        #expect(get.hasPrefix("https://chat.test/v1/media/"))
        // The link's token is a granted slot: an upload with it is checked against the slot's
        // size (an unknown token would be not found).
        let token = String(put.dropFirst("https://chat.test/v1/uploads/".count))
        do {
            _ = try await fixture.services.uploads.upload(token: token, path: "/nonexistent", size: 1)
            Issue.record("a one-byte upload filled a 1000-byte slot")
        } catch {
            #expect(error.code == .invalidField)
        }
    }

    @Test func tooLargeAFileIsRefusedWithTheLimit() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let limit = fixture.services.uploads.maxBytes
        do {
            _ = try await fixture.answer("get", request(size: limit + 1), to: "upload.chat.test", me: alice, context: fixture.context())
            Issue.record("too large a file got a slot")
        } catch let error as StanzaError {
            #expect(error.condition == "not-acceptable")
            #expect(error.application?.child("max-file-size")?.text == String(limit))
        }
    }

    @Test func onlyTheBareServiceDomainIsTheService() async throws {
        let fixture = try HandlerFixture()
        #expect(fixture.handlers.service(for: JID("upload.chat.test")) is UploadHandler)
        #expect(fixture.handlers.service(for: JID("someone@upload.chat.test")) == nil)
        #expect(fixture.handlers.service(for: JID("chat.test")) == nil)
        #expect(fixture.handlers.service(for: nil) == nil)
    }
}
