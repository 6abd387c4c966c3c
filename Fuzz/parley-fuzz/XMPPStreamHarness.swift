import ParleyXMPP

/// `xmpp-stream`: `XMLStreamParser` (expat with DTDs, entities, comments and processing
/// instructions refused) on arbitrary bytes, with small limits so they are reached.
///
/// Invariants: the bytes fed whole and fed in pieces give the same events and end the same
/// way (same stream error condition, or none); no element exceeds the depth or attribute
/// limits; every stanza serialized and parsed again is the same stanza (escaping and
/// namespaces round-trip).
enum XMPPStreamHarness {
    static let limits = XMLStreamLimits(maxStanzaBytes: 2048, maxDepth: 8, maxAttributes: 8)

    struct Outcome: Equatable {
        var events: [XMLStreamEvent] = []
        var failure: StreamErrorCondition?
    }

    static func run(_ bytes: [UInt8]) throws(InvariantFailure) {
        let whole = feed([bytes[...]])
        for pieces in InputSplitter.splits(bytes) {
            let split = feed(pieces)
            try InvariantFailure.expect(split.failure == whole.failure,
                                        "fed whole the stream ends with \(String(describing: whole.failure)), in pieces with \(String(describing: split.failure))")
            // Events of a stream that failed may differ in how many came before the failure.
            if whole.failure == nil {
                try InvariantFailure.expect(split.events == whole.events, "fed whole and in pieces, the events differ")
            }
        }
        for event in whole.events {
            guard case .stanza(let stanza) = event else { continue }
            try checkLimits(stanza, depth: 2)
            let again = XMLStreamParser(limits: XMLStreamLimits(maxStanzaBytes: 1 << 20, maxDepth: 64, maxAttributes: 64))
            let header = "<stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'>"
            let events: [XMLStreamEvent]
            do throws(XMLStreamError) {
                events = try again.feed(header) + again.feed(stanza.serialized())
            } catch {
                throw InvariantFailure("a serialized stanza does not parse: \(error.text)")
            }
            try InvariantFailure.expect(events.dropFirst().elementsEqual([.stanza(stanza)]),
                                        "a stanza does not survive serialization: \(stanza.serialized().prefix(200))")
        }
    }

    static func feed(_ pieces: [ArraySlice<UInt8>]) -> Outcome {
        let parser = XMLStreamParser(limits: limits)
        var outcome = Outcome()
        for piece in pieces {
            let result = piece.withUnsafeBytes { buffer in Result { () throws(XMLStreamError) in try parser.feed(buffer) } }
            switch result {
            case .success(let events): outcome.events += events
            case .failure(let error):
                outcome.failure = error.condition
                return outcome
            }
        }
        return outcome
    }

    static func checkLimits(_ element: XMLElement, depth: Int) throws(InvariantFailure) {
        try InvariantFailure.expect(depth <= limits.maxDepth, "an element at depth \(depth) came through")
        try InvariantFailure.expect(element.attributes.count <= limits.maxAttributes, "\(element.attributes.count) attributes came through")
        for child in element.elements { try checkLimits(child, depth: depth + 1) }
    }
}
