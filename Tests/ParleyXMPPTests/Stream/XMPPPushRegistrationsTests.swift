import ParleyProtocol
import Testing
@testable import ParleyXMPP

@Suite struct XMPPPushRegistrationsTests {
    /// A message's members are asked about all at once: those registered come back in their
    /// order, and a table nobody registered in answers without a lookup.
    @Test func theRegisteredAmongManyComeBackInTheirOrder() throws {
        let registrations = XMPPPushRegistrations(limit: 2)
        let mei = UserID(rawValue: 1), bob = UserID(rawValue: 2), ana = UserID(rawValue: 3)
        #expect(registrations.registered(among: [mei, bob, ana]).isEmpty)
        let service = try #require(JID("push.example"))
        let registration = XMPPPushRegistrations.Registration(service: service, serviceUser: UserID(rawValue: 9), node: "n")
        #expect(registrations.enable(ana, registration) && registrations.enable(mei, registration))
        #expect(registrations.registered(among: [mei, bob, ana]) == [mei, ana])
        #expect(registrations.registered(among: [ana, mei]) == [ana, mei])
        registrations.disable(mei, service: service, node: nil)
        #expect(registrations.registered(among: [mei, bob, ana]) == [ana])
    }
}
