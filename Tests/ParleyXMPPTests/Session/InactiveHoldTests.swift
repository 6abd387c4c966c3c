import ParleyCore
import Testing
@testable import ParleyXMPP

@Suite struct InactiveHoldTests {
    @Test func theNewestPresencePerSenderIsHeldInTheOrderSendersFirstChanged() {
        var hold = InactiveHold()
        hold.active = false
        hold.hold("<presence from='bob/a'><show>away</show></presence>", from: "bob/a")
        hold.hold("<presence from='ann/b'/>", from: "ann/b")
        hold.hold("<presence from='bob/a'><show>dnd</show></presence>", from: "bob/a")
        #expect(hold.activate() == ["<presence from='bob/a'><show>dnd</show></presence>", "<presence from='ann/b'/>"])
        #expect(hold.active)
        #expect(hold.activate().isEmpty)
    }

    @Test func onlyChatStatesAloneAreDropped() {
        let composing = "<composing xmlns='\(Namespace.chatStates)'/>"
        let receipt = "<received xmlns='\(Namespace.receipts)' id='m1'/>"
        #expect(InactiveHold.isOnlyChatState(ForwardedStanza(type: "chat", id: nil, from: "bob@x/a", children: composing)))
        #expect(!InactiveHold.isOnlyChatState(ForwardedStanza(type: "chat", id: nil, from: "bob@x/a", children: composing + receipt)))
        #expect(!InactiveHold.isOnlyChatState(ForwardedStanza(type: "chat", id: nil, from: "bob@x/a", children: receipt)))
        #expect(!InactiveHold.isOnlyChatState(ForwardedStanza(stanza: "presence", type: nil, id: nil, from: "bob@x/a", children: "")))
    }
}
