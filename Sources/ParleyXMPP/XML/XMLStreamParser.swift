internal import CExpat

/// A streaming parser for one client-to-server XML stream, over expat: bytes in, in whatever
/// pieces they arrive; the stream header, complete top-level stanzas and the stream's end out.
///
/// XMPP's restricted XML (RFC 6120 §11.1) is enforced: a DOCTYPE, an entity declaration, a
/// comment or a processing instruction ends the stream (`restricted-xml`) before anything is
/// expanded, so entity bombs and external entities never get parsed. Malformed input is
/// `not-well-formed`; going past a `XMLStreamLimits` bound is `policy-violation`. After an
/// error every further `feed` throws the same error.
///
/// Between stanzas the parser can be put away (`releaseIfIdle`): expat's parser and buffers,
/// about 10 KiB, are most of what an idle stream costs. The next `feed` builds a new expat
/// parser and primes it with a stream header carrying the first header's namespace
/// declarations, so the stanzas that follow parse exactly as they would have.
///
/// Not thread-safe: one parser belongs to one connection on one event loop.
public final class XMLStreamParser {
    public let limits: XMLStreamLimits
    /// nil while released between stanzas.
    private var parser: XML_Parser?
    /// A namespace declaration on the stream header (prefix nil: the default namespace).
    typealias HeaderDeclaration = (prefix: String?, uri: String)

    /// What nearly every client's header declares: `jabber:client` as the default namespace
    /// and `stream:` for the stream's. One array for every parser: a header that declares
    /// exactly these, in either order, keeps no array of its own (96 bytes a stream).
    static let usualHeaderDeclarations: [HeaderDeclaration] = [(nil, XMLElement.clientNamespace),
                                                               ("stream", XMLElement.streamNamespace)]

    /// The stream header's namespace declarations, for priming a parser made again after
    /// `releaseIfIdle`: `usualHeaderDeclarations` itself when they are those.
    private(set) var headerDeclarations: [HeaderDeclaration] = []
    /// Set while a new parser reads the synthetic header: it is not the client's, so it
    /// yields no event and its declarations are not recorded again.
    private var priming = false
    private var events: [XMLStreamEvent] = []
    private var failure: XMLStreamError?
    /// Elements open inside the current stanza (index 0 is the stanza itself).
    private var open: [XMLElement] = []
    private var depth = 0
    /// Namespace declarations seen for the element about to start.
    private var declarationsPending = 0
    private var defaultNamespacePending: String?
    /// Bytes given to expat so far.
    private var fed = 0
    /// Where the input not yet accounted for by a finished stanza (or the header) begins.
    private var boundary = 0
    /// Where the current stanza's start tag began.
    private var stanzaStart = 0

    /// Separates a namespace URI from a local name in expat's names; not an XML character, so
    /// it can appear in neither.
    static let separator: UInt8 = 0x01

    public init(limits: XMLStreamLimits = XMLStreamLimits()) {
        self.limits = limits
        parser = makeParser()
    }

    deinit {
        if let parser { XML_ParserFree(parser) }
    }

    /// A new expat parser with this object's handlers.
    private func makeParser() -> XML_Parser {
        let parser: XML_Parser = "UTF-8".withCString { XML_ParserCreateNS($0, CChar(bitPattern: Self.separator)) }
        XML_SetUserData(parser, Unmanaged.passUnretained(self).toOpaque())
        XML_SetElementHandler(parser, { data, name, attributes in
            XMLStreamParser.from(data).startElement(name, attributes)
        }, { data, name in
            XMLStreamParser.from(data).endElement(name)
        })
        XML_SetCharacterDataHandler(parser) { data, text, length in
            XMLStreamParser.from(data).characters(text, Int(length))
        }
        XML_SetNamespaceDeclHandler(parser, { data, prefix, uri in
            XMLStreamParser.from(data).namespaceDeclared(prefix: prefix, uri: uri)
        }, nil)
        XML_SetStartDoctypeDeclHandler(parser) { data, _, _, _, _ in
            XMLStreamParser.from(data).fail(.restrictedXML, "a DOCTYPE is not allowed in an XMPP stream")
        }
        XML_SetEntityDeclHandler(parser) { data, _, _, _, _, _, _, _, _ in
            XMLStreamParser.from(data).fail(.restrictedXML, "entity declarations are not allowed in an XMPP stream")
        }
        XML_SetCommentHandler(parser) { data, _ in
            XMLStreamParser.from(data).fail(.restrictedXML, "comments are not allowed in an XMPP stream")
        }
        XML_SetProcessingInstructionHandler(parser) { data, _, _ in
            XMLStreamParser.from(data).fail(.restrictedXML, "processing instructions are not allowed in an XMPP stream")
        }
        XML_SetXmlDeclHandler(parser) { data, _, encoding, _ in
            guard let encoding else { return }
            let name = String(cString: encoding).uppercased()
            if name != "UTF-8" && name != "UTF8" {
                XMLStreamParser.from(data).fail(.unsupportedEncoding, "an XMPP stream is UTF-8")
            }
        }
        return parser
    }

    /// Whether expat holds nothing but the open stream: the header was read, no stanza is
    /// open, and every byte fed belongs to a finished stanza or whitespace.
    public var isBetweenStanzas: Bool {
        failure == nil && depth == 1 && open.isEmpty && fed == boundary
    }

    /// About what expat holds for a stream between stanzas, and so what `releaseIfIdle` frees.
    public static let approximateParserBytes = 10 * 1024

    /// Frees expat's parser and buffers if the stream is between stanzas (see the type's
    /// notes); returns whether it freed them now (false: mid-stanza, or already freed).
    @discardableResult
    public func releaseIfIdle() -> Bool {
        guard let parser, isBetweenStanzas else { return false }
        XML_ParserFree(parser)
        self.parser = nil
        events = []
        open = []
        return true
    }

    /// Makes the parser again after `releaseIfIdle`: a new expat parser reads a stream header
    /// with the client's namespace declarations (and the prefix it gave the stream's
    /// namespace, so its `</stream:stream>` still matches). Byte counts start over after it.
    private func restore() -> XML_Parser {
        let parser = makeParser()
        self.parser = parser
        let prefix = headerDeclarations.first { $0.prefix != nil && $0.uri == XMLElement.streamNamespace }?.prefix ?? "stream"
        var bytes = Array("<\(prefix):stream".utf8)
        for declaration in headerDeclarations {
            bytes.append(contentsOf: " xmlns".utf8)
            if let declared = declaration.prefix {
                bytes.append(UInt8(ascii: ":"))
                bytes.append(contentsOf: declared.utf8)
            }
            bytes.append(contentsOf: "='".utf8)
            XMLEscaping.appendAttributeValue(declaration.uri, to: &bytes)
            bytes.append(UInt8(ascii: "'"))
        }
        bytes.append(UInt8(ascii: ">"))
        depth = 0
        priming = true
        let status = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { XML_Parse(parser, $0.baseAddress, Int32($0.count), 0) }
        }
        priming = false
        if failure == nil, status == XML_STATUS_ERROR || depth != 1 {
            // Cannot happen for declarations expat accepted once; fail closed if it does.
            failure = XMLStreamError(.internalServerError, "the stream could not be resumed after a pause")
        }
        fed = bytes.count
        boundary = fed
        return parser
    }

    private static func from(_ data: UnsafeMutableRawPointer?) -> XMLStreamParser {
        Unmanaged<XMLStreamParser>.fromOpaque(data!).takeUnretainedValue()
    }

    /// Parses the next bytes of the stream and returns the events they completed.
    public func feed(_ bytes: UnsafeRawBufferPointer) throws(XMLStreamError) -> [XMLStreamEvent] {
        if let failure { throw failure }
        let parser = self.parser ?? restore()
        if let failure { throw failure }
        var offset = 0
        // Pieces no bigger than a stanza may be, so a limit is seen before much more is parsed.
        let piece = max(1, min(limits.maxStanzaBytes, 64 * 1024))
        repeat {
            let count = min(piece, bytes.count - offset)
            let start = bytes.baseAddress.map { $0 + offset }?.assumingMemoryBound(to: CChar.self)
            let status = XML_Parse(parser, start, Int32(count), 0)
            fed += count
            offset += count
            if failure == nil, status == XML_STATUS_ERROR {
                let code = XML_GetErrorCode(parser)
                let message = XML_ErrorString(code).map { String(cString: $0) } ?? "malformed XML"
                failure = XMLStreamError(.notWellFormed, "not well-formed XML: \(message)")
            }
            if failure == nil, fed - boundary > limits.maxStanzaBytes {
                failure = XMLStreamError(.policyViolation, "a stanza may have at most \(limits.maxStanzaBytes) bytes")
            }
            if let failure {
                events.removeAll()
                throw failure
            }
        } while offset < bytes.count
        defer { events.removeAll() }
        return events
    }

    /// Convenience for tests and fixed text.
    public func feed(_ text: String) throws(XMLStreamError) -> [XMLStreamEvent] {
        let bytes = Array(text.utf8)
        let result: Result<[XMLStreamEvent], XMLStreamError> = bytes.withUnsafeBytes { buffer in
            do throws(XMLStreamError) { return .success(try feed(buffer)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    // MARK: Handlers

    private func fail(_ condition: StreamErrorCondition, _ text: String) {
        guard failure == nil else { return }
        failure = XMLStreamError(condition, text)
        XML_StopParser(parser!, 0)
    }

    // The handlers below run only inside `XML_Parse`, so `parser` is set whenever they use it.

    private var endOfCurrentEvent: Int {
        Int(XML_GetCurrentByteIndex(parser!)) + Int(XML_GetCurrentByteCount(parser!))
    }

    private func namespaceDeclared(prefix: UnsafePointer<XML_Char>?, uri: UnsafePointer<XML_Char>?) {
        guard failure == nil else { return }
        declarationsPending += 1
        if depth == 0 && !priming {
            // The stream's own namespace, which every header declares, as the constant: its 32
            // characters would otherwise be a heap copy every stream keeps for its whole life.
            let declared = uri.map { String(cString: $0) } ?? ""
            headerDeclarations.append((prefix.map { String(cString: $0) },
                                       declared == XMLElement.streamNamespace ? XMLElement.streamNamespace : declared))
        }
        if prefix == nil { defaultNamespacePending = uri.map { String(cString: $0) } ?? "" }
    }

    private func startElement(_ rawName: UnsafePointer<XML_Char>?, _ rawAttributes: UnsafeMutablePointer<UnsafePointer<XML_Char>?>?) {
        guard failure == nil, let rawName else { return }
        depth += 1
        let declarations = declarationsPending
        let defaultNamespace = defaultNamespacePending
        declarationsPending = 0
        defaultNamespacePending = nil
        guard depth <= limits.maxDepth else {
            fail(.policyViolation, "elements may be nested at most \(limits.maxDepth) deep")
            return
        }
        var attributes: [XMLAttribute] = []
        if let rawAttributes {
            var index = 0
            // Counted first, so the array is made once at its size, not grown per attribute.
            while rawAttributes[index] != nil { index += 2 }
            attributes.reserveCapacity(min(index / 2, limits.maxAttributes))
            index = 0
            while let key = rawAttributes[index], let value = rawAttributes[index + 1] {
                guard attributes.count + declarations < limits.maxAttributes else {
                    fail(.policyViolation, "an element may have at most \(limits.maxAttributes) attributes")
                    return
                }
                attributes.append(XMLAttribute(name: Self.attributeName(key), value: String(cString: value)))
                index += 2
            }
        }
        guard attributes.count + declarations <= limits.maxAttributes else {
            fail(.policyViolation, "an element may have at most \(limits.maxAttributes) attributes")
            return
        }
        let (namespace, name) = Self.split(rawName)
        switch depth {
        case 1:
            guard namespace == XMLElement.streamNamespace, name == "stream" else {
                fail(.invalidNamespace, "the stream must open with <stream:stream> in \(XMLElement.streamNamespace)")
                return
            }
            guard !priming else { return }
            headerDeclarations = Self.sharedIfUsual(headerDeclarations)
            events.append(.streamOpened(attributes: attributes, defaultNamespace: defaultNamespace ?? ""))
            boundary = endOfCurrentEvent
        case 2:
            stanzaStart = Int(XML_GetCurrentByteIndex(parser!))
            // The array of the previous stanza's elements serves again.
            open.removeAll(keepingCapacity: true)
            open.append(XMLElement(name, namespace: namespace, attributes: attributes))
        default:
            open.append(XMLElement(name, namespace: namespace, attributes: attributes))
        }
    }

    private func endElement(_ rawName: UnsafePointer<XML_Char>?) {
        guard failure == nil else { return }
        defer { depth -= 1 }
        switch depth {
        case 1:
            events.append(.streamClosed)
            boundary = endOfCurrentEvent
        case 2:
            let end = endOfCurrentEvent
            guard end - stanzaStart <= limits.maxStanzaBytes, let stanza = open.popLast() else {
                fail(.policyViolation, "a stanza may have at most \(limits.maxStanzaBytes) bytes")
                return
            }
            events.append(.stanza(stanza))
            boundary = end
        default:
            guard let element = open.popLast(), !open.isEmpty else { return }
            open[open.count - 1].append(element)
        }
    }

    private func characters(_ text: UnsafePointer<XML_Char>?, _ length: Int) {
        guard failure == nil, let text, length > 0 else { return }
        let string = text.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
        if depth <= 1 {
            // Between stanzas only whitespace (keepalives) may appear.
            guard string.utf8.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else {
                fail(.badFormat, "text is not allowed between stanzas")
                return
            }
            boundary = endOfCurrentEvent
            return
        }
        guard !open.isEmpty else { return }
        let last = open.count - 1
        if case .text(let previous) = open[last].children.last {
            open[last].children[open[last].children.count - 1] = .text(previous + string)
        } else {
            open[last].children.append(.text(string))
        }
    }

    /// `usualHeaderDeclarations` if `declarations` are the same ones in any order (a prefix is
    /// declared at most once on an element, so equal counts and containment suffice), else
    /// `declarations` as they are.
    static func sharedIfUsual(_ declarations: [HeaderDeclaration]) -> [HeaderDeclaration] {
        let usual = usualHeaderDeclarations
        guard declarations.count == usual.count,
              declarations.allSatisfy({ declared in usual.contains { $0.prefix == declared.prefix && $0.uri == declared.uri } })
        else { return declarations }
        return usual
    }

    // MARK: Names

    /// Splits expat's "uri<separator>local" into its parts, each made from expat's bytes (no
    /// string of the whole name first: a namespace and a name are two strings, not three).
    private static func split(_ raw: UnsafePointer<XML_Char>) -> (namespace: String, name: String) {
        raw.withMemoryRebound(to: UInt8.self, capacity: 1) { bytes in
            var length = 0
            var mark: Int?
            while bytes[length] != 0 {
                if mark == nil && bytes[length] == separator { mark = length }
                length += 1
            }
            guard let mark else { return ("", String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self)) }
            return (String(decoding: UnsafeBufferPointer(start: bytes, count: mark), as: UTF8.self),
                    String(decoding: UnsafeBufferPointer(start: bytes + mark + 1, count: length - mark - 1), as: UTF8.self))
        }
    }

    private static func attributeName(_ raw: UnsafePointer<XML_Char>) -> String {
        let (namespace, name) = split(raw)
        return namespace == "http://www.w3.org/XML/1998/namespace" ? "xml:" + name : name
    }
}
