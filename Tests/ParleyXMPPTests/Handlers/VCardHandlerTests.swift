import ParleyCore
import ParleyProtocol
import Testing
@testable import ParleyXMPP

@Suite struct VCardHandlerTests {
    @Test func settingOnesVCardUpdatesTheProfileAndTellsTheOtherDevices() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        let card = XMLElement("vCard", namespace: Namespace.vcard, [:], children: [
            XMLElement("NICKNAME", namespace: Namespace.vcard, [:], text: " Ally "),
            XMLElement("PHOTO", namespace: Namespace.vcard, [:], children: [
                XMLElement("EXTVAL", namespace: Namespace.vcard, [:], text: "https://chat.test/v1/media/abc"),
            ]),
        ])
        let context = fixture.context()

        #expect(try await fixture.answer("set", card, me: alice, context: context) == nil)

        let account = try #require(await context.account)
        #expect(account.profile.nickname == "Ally")
        // The server's own link is kept as its path, as native clients set it.
        #expect(account.profile.avatar == "/v1/media/abc")
        let told = fixture.delivery.events.filter { if case .meUpdated = $0.event { true } else { false } }
        #expect(told.count == 1 && told.first?.users == [alice.user] && told.first?.excluding == context.token)

        // Anyone reads it back as a vCard with an absolute link.
        let read = try #require(try await fixture.answer("get", XMLElement("vCard", namespace: Namespace.vcard), to: "alice@chat.test",
                                                         me: bob, context: fixture.context()))
        #expect(read.child("NICKNAME")?.text == "Ally")
        #expect(read.child("PHOTO")?.child("EXTVAL")?.text == "https://chat.test/v1/media/abc")
    }

    @Test func anotherUsersVCardCannotBeSet() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        _ = try await fixture.user("bob")
        do {
            _ = try await fixture.answer("set", XMLElement("vCard", namespace: Namespace.vcard), to: "bob@chat.test", me: alice,
                                         context: fixture.context())
            Issue.record("another user's vCard was set")
        } catch let error as StanzaError {
            #expect(error.condition == "service-unavailable")
        }
    }
}
