import Testing
@testable import ParleyXMPP

@Suite struct XMLElementTests {
    @Test func serializationEscapesTextAndAttributes() {
        var message = XMLElement("message", ["to": "a@b", "id": "it's <\"x\"> & y"])
        message.append(XMLElement("body", [:], text: "1 < 2 & 3 > 2 \u{0} \u{1F600}"))
        #expect(message.serialized() == "<message to='a@b' id='it&apos;s &lt;&quot;x&quot;&gt; &amp; y'><body>1 &lt; 2 &amp; 3 &gt; 2 \u{FFFD} \u{1F600}</body></message>")
    }

    @Test func namespacesAreWrittenWhereTheyChange() {
        let iq = XMLElement("iq", namespace: "jabber:client", ["type": "result"],
                            children: [XMLElement("query", namespace: "jabber:iq:roster", [:], children: [XMLElement("item", namespace: "jabber:iq:roster", ["jid": "x@y"])])])
        #expect(iq.serialized() == "<iq type='result'><query xmlns='jabber:iq:roster'><item jid='x@y'/></query></iq>")
        let features = XMLElement("features", namespace: XMLElement.streamNamespace, [:], children: [XMLElement("bind", namespace: "urn:ietf:params:xml:ns:xmpp-bind")])
        #expect(features.serialized() == "<stream:features><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'/></stream:features>")
    }

    @Test func whatIsSerializedParsesBackToTheSameElement() throws {
        var original = XMLElement("message", namespace: "jabber:client", ["type": "chat", "id": "a'b\"c&d\n"])
        original.append(XMLElement("body", namespace: "jabber:client", [:], text: "<tag> & ' \" \t\r\n"))
        original.append(XMLElement("x", namespace: "urn:other", ["k": "v"]))
        let parser = XMLStreamParser()
        _ = try parser.feed(XMLStreamParserTests.header)
        let events = try parser.feed(original.serialized())
        #expect(events == [.stanza(original)])
    }
}
