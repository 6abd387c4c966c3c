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

    @Test func aChildIsFoundByNameAndNamespaceAmongTextAndOtherElements() {
        let message = XMLElement("message", [:], children: [
            XMLElement("body", [:], text: "hi"), XMLElement("request", namespace: "urn:xmpp:receipts"),
            XMLElement("request", namespace: "urn:other", ["n": "2"]),
        ])
        var mixed = message
        mixed.children.insert(.text(" "), at: 1)
        #expect(mixed.child("request", namespace: "urn:other")?["n"] == "2")
        #expect(mixed.child("request")?.namespace == "urn:xmpp:receipts")
        #expect(mixed.child("body")?.text == "hi")
        #expect(mixed.child("request", namespace: "urn:none") == nil)
        #expect(mixed.child("x") == nil)
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

    /// Text without anything to escape is copied whole; what has something goes character by
    /// character. Both must give what a plain per-character escaper gives.
    @Test func escapingAgreesWithAPerCharacterReference() {
        func reference(_ text: String, attribute: Bool) -> String {
            var out = ""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "&": out += "&amp;"
                case "<": out += "&lt;"
                case ">": out += "&gt;"
                case "\r": out += "&#13;"
                case "'" where attribute: out += "&apos;"
                case "\"" where attribute: out += "&quot;"
                case "\n" where attribute: out += "&#10;"
                case "\t" where attribute: out += "&#9;"
                default:
                    let v = scalar.value
                    let allowed = v == 0x9 || v == 0xA || (0x20...0xD7FF).contains(v) || (0xE000...0xFFFD).contains(v) || v >= 0x10000
                    out.unicodeScalars.append(allowed ? scalar : "\u{FFFD}")
                }
            }
            return out
        }
        let samples = ["", "plain ascii 0123456789abcdef", "user3@localhost/tsung", "tab\there\nnew line", "cr\r", "del\u{7F}",
                       "quote ' and \" both", "a & b < c > d", "nul \u{0} and bell \u{7}", "中文 かな 한국어", "emoji 😀 👍🏽 ❤️",
                       "variation \u{FE0F} fullwidth \u{FF21}", "nonchars \u{FFFE} \u{FFFF} end", "\u{FFFD}", "é"]
        for sample in samples {
            var text: [UInt8] = [], attribute: [UInt8] = []
            XMLEscaping.appendText(sample, to: &text)
            XMLEscaping.appendAttributeValue(sample, to: &attribute)
            #expect(String(decoding: text, as: UTF8.self) == reference(sample, attribute: false), "\(sample)")
            #expect(String(decoding: attribute, as: UTF8.self) == reference(sample, attribute: true), "\(sample)")
            #expect(XMLEscaping.attribute(sample) == reference(sample, attribute: true), "\(sample)")
        }
    }
}
