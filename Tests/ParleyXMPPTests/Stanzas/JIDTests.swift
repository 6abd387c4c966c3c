import ParleyProtocol
import Testing
@testable import ParleyXMPP

@Suite struct JIDTests {
    @Test func partsAreParsedAndLocalAndDomainLowercased() throws {
        let full = try #require(JID("Mei@Example.ORG/Gajim Laptop"))
        #expect(full.local == "mei" && full.domain == "example.org" && full.resource == "Gajim Laptop")
        #expect(full.description == "mei@example.org/Gajim Laptop")
        #expect(full.bare == JID("mei@example.org"))
        #expect(JID("example.org") == JID(local: nil, domain: "example.org"))
        #expect(JID("example.org.")?.domain == "example.org")
        // The resource may itself contain '@' and '/'.
        #expect(JID("a@b/c@d/e")?.resource == "c@d/e")
    }

    @Test func theTextHasEachPartPresentAndItsSeparator() {
        #expect(JID(local: nil, domain: "example.org").description == "example.org")
        #expect(JID(local: nil, domain: "example.org", resource: "r").description == "example.org/r")
        #expect(JID(local: "mei", domain: "example.org").description == "mei@example.org")
        #expect(JID(local: "美", domain: "例え.jp", resource: "電話 😀").description == "美@例え.jp/電話 😀")
    }

    @Test func malformedAddressesAreRefused() {
        for bad in ["", "@example.org", "mei@", "mei@example.org/", "m ei@example.org", "m<i@example.org", "a@b@c", "mei@exa mple.org",
                    String(repeating: "x", count: 1024) + "@example.org"] {
            #expect(JID(bad) == nil, "\(bad)")
        }
    }

    @Test func usersWithoutAUsernameAreAddressedByTheirId() {
        let named = UserProfile(id: UserID(rawValue: 7), username: "Mei", nickname: nil, avatar: nil, signature: nil, age: nil, hobbies: [], createdAt: 0)
        let phone = UserProfile(id: UserID(rawValue: 42), username: nil, nickname: nil, avatar: nil, signature: nil, age: nil, hobbies: [], createdAt: 0)
        #expect(XMPPDirectory.localPart(of: named) == "mei")
        #expect(XMPPDirectory.localPart(of: phone) == "~42")
        #expect(JID("~42@example.org")?.local == "~42")
    }
}
