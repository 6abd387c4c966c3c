import Testing
@testable import ParleyXMPP

@Suite struct XMLStreamParserTests {
    static let header = "<?xml version='1.0'?><stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams' to='example.org' version='1.0'>"

    func stanzas(_ events: [XMLStreamEvent]) -> [XMLElement] {
        events.compactMap { if case .stanza(let element) = $0 { return element } else { return nil } }
    }

    /// The stream error `body` throws; nil if it throws none (or something else).
    func error(_ body: () throws -> Void) -> XMLStreamError? {
        do { try body(); return nil } catch { return error as? XMLStreamError }
    }

    @Test func aStreamYieldsItsHeaderStanzasAndEnd() throws {
        let parser = XMLStreamParser()
        var events = try parser.feed(Self.header)
        #expect(events == [.streamOpened(attributes: [XMLAttribute(name: "to", value: "example.org"), XMLAttribute(name: "version", value: "1.0")],
                                         defaultNamespace: "jabber:client")])
        events = try parser.feed("<message to='a@b' type='chat' xml:lang='en'><body>1 &lt; 2 &amp; &#x263A;</body><active xmlns='http://jabber.org/protocol/chatstates'/></message> \n")
        let message = try #require(stanzas(events).first)
        #expect(message.name == "message" && message.namespace == "jabber:client")
        #expect(message["to"] == "a@b" && message["xml:lang"] == "en")
        #expect(message.child("body")?.text == "1 < 2 & \u{263A}")
        #expect(message.child("active", namespace: "http://jabber.org/protocol/chatstates") != nil)
        #expect(try parser.feed("</stream:stream>") == [.streamClosed])
    }

    @Test func inputSplitByteByByteGivesTheSameStanzas() throws {
        let text = Self.header + "<iq type='get' id='r1'><query xmlns='jabber:iq:roster'/></iq><message><body>héllo ☺ 𝄞</body></message></stream:stream>"
        let whole = try XMLStreamParser().feed(text)
        let parser = XMLStreamParser()
        var pieces: [XMLStreamEvent] = []
        for byte in Array(text.utf8) {
            pieces += try [byte].withUnsafeBytes { buffer throws(XMLStreamError) in try parser.feed(buffer) }
        }
        #expect(pieces == whole)
        #expect(stanzas(pieces).count == 2)
        #expect(stanzas(pieces).last?.child("body")?.text == "héllo ☺ 𝄞")
    }

    @Test func aDoctypeIsRefused() {
        let failure = error { _ = try XMLStreamParser().feed("<?xml version='1.0'?><!DOCTYPE stream [<!ELEMENT x ANY>]>") }
        #expect(failure?.condition == .restrictedXML)
    }

    @Test func anEntityBombFailsBeforeExpanding() {
        var bomb = "<?xml version='1.0'?><!DOCTYPE lolz [<!ENTITY lol 'lol'>"
        for level in 1...9 {
            bomb += "<!ENTITY lol\(level) '" + String(repeating: "&lol\(level == 1 ? "" : String(level - 1));", count: 10) + "'>"
        }
        bomb += "]><stream:stream xmlns:stream='http://etherx.jabber.org/streams'><message><body>&lol9;</body></message>"
        let parser = XMLStreamParser()
        #expect(error { _ = try parser.feed(bomb) }?.condition == .restrictedXML)
        // Once failed, it stays failed.
        #expect(error { _ = try parser.feed("<message/>") }?.condition == .restrictedXML)
    }

    @Test func anUndeclaredEntityIsNotWellFormed() throws {
        let parser = XMLStreamParser()
        _ = try parser.feed(Self.header)
        #expect(error { _ = try parser.feed("<message><body>&xxe;</body></message>") }?.condition == .notWellFormed)
    }

    @Test func commentsAndProcessingInstructionsAreRefused() throws {
        for bad in ["<!-- hi -->", "<?php x ?>"] {
            let parser = XMLStreamParser()
            _ = try parser.feed(Self.header)
            #expect(error { _ = try parser.feed("<message>\(bad)</message>") }?.condition == .restrictedXML)
        }
    }

    @Test func malformedInputIsNotWellFormed() throws {
        let parser = XMLStreamParser()
        _ = try parser.feed(Self.header)
        #expect(error { _ = try parser.feed("<message></iq>") }?.condition == .notWellFormed)
    }

    @Test func theStreamMustOpenWithStreamStream() {
        #expect(error { _ = try XMLStreamParser().feed("<stream xmlns='jabber:client'>") }?.condition == .invalidNamespace)
    }

    @Test func textBetweenStanzasIsBadFormat() throws {
        let parser = XMLStreamParser()
        _ = try parser.feed(Self.header)
        #expect(try parser.feed("  \n\t ").isEmpty)
        #expect(error { _ = try parser.feed("hello") }?.condition == .badFormat)
    }

    @Test func depthIsLimitedAtTheBoundary() throws {
        let limits = XMLStreamLimits(maxStanzaBytes: 4096, maxDepth: 5, maxAttributes: 8)
        // Stream = 1, stanza = 2: three more levels fit exactly.
        let fits = XMLStreamParser(limits: limits)
        _ = try fits.feed(Self.header)
        #expect(stanzas(try fits.feed("<a><b><c><d/></c></b></a>")).count == 1)
        let deeper = XMLStreamParser(limits: limits)
        _ = try deeper.feed(Self.header)
        #expect(error { _ = try deeper.feed("<a><b><c><d><e/></d></c></b></a>") }?.condition == .policyViolation)
    }

    @Test func attributesAreLimitedAtTheBoundary() throws {
        // The header has two attributes and two namespace declarations.
        let limits = XMLStreamLimits(maxStanzaBytes: 4096, maxDepth: 8, maxAttributes: 4)
        let fits = XMLStreamParser(limits: limits)
        _ = try fits.feed(Self.header)
        #expect(stanzas(try fits.feed("<a w='0' x='1' y='2' z='3'/>")).count == 1)
        // Namespace declarations count too.
        let over = XMLStreamParser(limits: limits)
        _ = try over.feed(Self.header)
        #expect(error { _ = try over.feed("<a xmlns='urn:x' w='0' x='1' y='2' z='3'/>") }?.condition == .policyViolation)
    }

    @Test func stanzaSizeIsLimitedAtTheBoundary() throws {
        let limits = XMLStreamLimits(maxStanzaBytes: 100, maxDepth: 8, maxAttributes: 8)
        let exact = "<m>" + String(repeating: "x", count: 100 - 7) + "</m>"
        #expect(exact.utf8.count == 100)
        let fits = XMLStreamParser(limits: limits)
        _ = try fits.feed(Self.header)
        #expect(stanzas(try fits.feed(exact)).count == 1)
        #expect(stanzas(try fits.feed(exact)).count == 1)
        let over = XMLStreamParser(limits: limits)
        _ = try over.feed(Self.header)
        #expect(error { _ = try over.feed("<m>" + String(repeating: "x", count: 101 - 7) + "</m>") }?.condition == .policyViolation)
    }

    @Test func anUnfinishedHugeStanzaIsCutOffAsItArrives() throws {
        let limits = XMLStreamLimits(maxStanzaBytes: 1000, maxDepth: 8, maxAttributes: 8)
        let parser = XMLStreamParser(limits: limits)
        _ = try parser.feed(Self.header)
        _ = try parser.feed("<message><body>")
        var failure: XMLStreamError?
        for _ in 0..<20 where failure == nil {
            failure = error { _ = try parser.feed(String(repeating: "y", count: 100)) }
        }
        #expect(failure?.condition == .policyViolation)
    }

    // MARK: Putting the parser away between stanzas

    @Test func aReleasedParserParsesTheRestOfTheStreamAsIfItHadBeenKept() throws {
        let rest = ["<message to='a@b' type='chat' xml:lang='en'><body>one &amp; ☺</body></message>",
                    " \n", "<iq type='get' id='r1'><query xmlns='jabber:iq:roster'/></iq>",
                    "<presence><show>away</show></presence>", "</stream:stream>"]
        let kept = XMLStreamParser()
        let released = XMLStreamParser()
        #expect(try kept.feed(Self.header) == (try released.feed(Self.header)))
        var events: [XMLStreamEvent] = []
        for piece in rest {
            #expect(released.releaseIfIdle())
            let next = try released.feed(piece)
            #expect(next == (try kept.feed(piece)))
            events += next
        }
        // No second header event; the stream's end matched the header's `stream:` prefix
        // in a parser made after the release.
        #expect(stanzas(events).map(\.name) == ["message", "iq", "presence"])
        #expect(stanzas(events).first?.child("body")?.text == "one & ☺")
        #expect(events.last == .streamClosed)
    }

    @Test func theClientsOwnPrefixesAndDefaultNamespaceSurviveARelease() throws {
        let header = "<s:stream xmlns:s='http://etherx.jabber.org/streams' xmlns='jabber:client' xmlns:x='urn:example:extra' to='example.org' version='1.0'>"
        let parser = XMLStreamParser()
        _ = try parser.feed(header)
        #expect(parser.releaseIfIdle())
        let message = try #require(stanzas(try parser.feed("<message><x:note>hi</x:note></message>")).first)
        #expect(message.namespace == "jabber:client")
        #expect(message.child("note", namespace: "urn:example:extra")?.text == "hi")
        #expect(parser.releaseIfIdle())
        #expect(try parser.feed("</s:stream>") == [.streamClosed])
    }

    @Test func theParserIsKeptWhileAStanzaOrTagIsUnfinished() throws {
        let parser = XMLStreamParser()
        // Before the header there is nothing to prime a new parser with.
        #expect(!parser.releaseIfIdle())
        _ = try parser.feed(Self.header)
        _ = try parser.feed("<message><bo")
        #expect(!parser.isBetweenStanzas)
        #expect(!parser.releaseIfIdle())
        let done = try parser.feed("dy>hi</body></message><pres")
        #expect(stanzas(done).first?.child("body")?.text == "hi")
        #expect(!parser.releaseIfIdle())
        #expect(stanzas(try parser.feed("ence/>")).first?.name == "presence")
        #expect(parser.releaseIfIdle())
        // Already put away: nothing more to free.
        #expect(!parser.releaseIfIdle())
    }

    @Test func limitsAndRulesHoldAfterARelease() throws {
        let limits = XMLStreamLimits(maxStanzaBytes: 100, maxDepth: 4, maxAttributes: 8)
        let exact = "<m>" + String(repeating: "x", count: 100 - 7) + "</m>"
        let parser = XMLStreamParser(limits: limits)
        _ = try parser.feed(Self.header)
        #expect(parser.releaseIfIdle())
        #expect(stanzas(try parser.feed(exact)).count == 1)
        #expect(parser.releaseIfIdle())
        #expect(error { _ = try parser.feed("<m>" + String(repeating: "x", count: 101 - 7) + "</m>") }?.condition == .policyViolation)

        let deep = XMLStreamParser(limits: limits)
        _ = try deep.feed(Self.header)
        #expect(deep.releaseIfIdle())
        #expect(error { _ = try deep.feed("<a><b><c><d/></c></b></a>") }?.condition == .policyViolation)

        for bad in ["<!-- hi -->", "<?php x ?>", "text"] {
            let strict = XMLStreamParser()
            _ = try strict.feed(Self.header)
            #expect(strict.releaseIfIdle())
            #expect(error { _ = try strict.feed(bad) } != nil, "\(bad) after a release")
        }
    }

    /// Whether the parser keeps the shared usual declarations rather than an array of its own.
    func sharesTheUsualDeclarations(_ parser: XMLStreamParser) -> Bool {
        parser.headerDeclarations.withUnsafeBufferPointer { $0.baseAddress }
            == XMLStreamParser.usualHeaderDeclarations.withUnsafeBufferPointer { $0.baseAddress }
    }

    @Test func theUsualHeaderDeclarationsAreSharedInEitherOrder() throws {
        let swapped = "<stream:stream xmlns:stream='http://etherx.jabber.org/streams' xmlns='jabber:client' to='example.org' version='1.0'>"
        for header in [Self.header, swapped] {
            let parser = XMLStreamParser()
            _ = try parser.feed(header)
            #expect(sharesTheUsualDeclarations(parser), "\(header)")
            // After a release the stanzas and the stream's end parse as before.
            #expect(parser.releaseIfIdle())
            let message = try #require(stanzas(try parser.feed("<message to='a@b'><body>hi</body></message>")).first)
            #expect(message.namespace == "jabber:client" && message.child("body")?.text == "hi")
            #expect(parser.releaseIfIdle())
            #expect(try parser.feed("</stream:stream>") == [.streamClosed])
        }
    }

    /// A header that declares anything else (another prefix for the stream, a further
    /// namespace, another default namespace, no default namespace) keeps its own declarations,
    /// and its stanzas parse after a release as they would have.
    @Test func aHeaderDeclaringOtherNamespacesKeepsItsOwn() throws {
        let cases: [(header: String, stanza: String, namespace: String, end: String)] = [
            ("<s:stream xmlns:s='http://etherx.jabber.org/streams' xmlns='jabber:client'>", "<message/>", "jabber:client", "</s:stream>"),
            ("<stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams' xmlns:x='urn:example:x'>",
             "<x:note/>", "urn:example:x", "</stream:stream>"),
            ("<stream:stream xmlns='jabber:server' xmlns:stream='http://etherx.jabber.org/streams'>", "<message/>", "jabber:server",
             "</stream:stream>"),
            ("<stream:stream xmlns:stream='http://etherx.jabber.org/streams'>", "<message/>", "", "</stream:stream>"),
        ]
        for item in cases {
            let parser = XMLStreamParser()
            _ = try parser.feed(item.header)
            #expect(!sharesTheUsualDeclarations(parser), "\(item.header)")
            #expect(parser.releaseIfIdle())
            let stanza = try #require(stanzas(try parser.feed(item.stanza)).first)
            #expect(stanza.namespace == item.namespace, "\(item.header)")
            #expect(parser.releaseIfIdle())
            #expect(try parser.feed(item.end) == [.streamClosed], "\(item.header)")
        }
        #expect(XMLStreamParser.sharedIfUsual([("stream", XMLElement.streamNamespace), (nil, XMLElement.clientNamespace)]).count == 2)
        #expect(XMLStreamParser.sharedIfUsual([("stream", XMLElement.streamNamespace), ("c", XMLElement.clientNamespace)])[1].prefix == "c")
    }
}
