import Testing
@testable import ParleyXMPP

@Suite struct CapsFeaturesTests {
    @Test func aPresenceCapsKeyIsNodeAndVer() {
        let presence = XMLElement("presence", [:], children: [
            XMLElement("c", namespace: Namespace.caps, ["hash": "sha-1", "node": "https://gajim.org", "ver": "abc="]),
        ])
        #expect(CapsFeatures.key(of: presence) == "https://gajim.org#abc=")
        #expect(CapsFeatures.key(of: XMLElement("presence")) == nil)
    }

    @Test func onlyPEPEventsNameANode() {
        let items = XMLElement("items", namespace: Namespace.pubsubEvent, ["node": Namespace.nick])
        let event = XMLElement("event", namespace: Namespace.pubsubEvent, [:], children: [items]).serialized()
        #expect(CapsFeatures.eventNode(stanza: nil, type: "headline", children: event) == Namespace.nick)
        // Not a headline message, or no event in it: not a PEP event.
        #expect(CapsFeatures.eventNode(stanza: nil, type: "chat", children: event) == nil)
        #expect(CapsFeatures.eventNode(stanza: "presence", type: "headline", children: event) == nil)
        #expect(CapsFeatures.eventNode(stanza: nil, type: "headline", children: "<body>hi</body>") == nil)
    }

    @Test func featuresAreRememberedPerCapsWithinTheCapacity() {
        let caps = CapsFeatures()
        caps.remember([Namespace.nick + "+notify"], for: "n#1")
        #expect(caps.features(of: "n#1")?.contains(Namespace.nick + "+notify") == true)
        for index in 0..<caps.capacity { caps.remember([], for: "k\(index)") }
        #expect(caps.features(of: "n#1") == nil)
    }
}
