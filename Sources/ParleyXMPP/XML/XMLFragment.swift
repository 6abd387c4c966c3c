/// XML text a handler stored (private XML, XEP-0049) read back into elements.
enum XMLFragment {
    /// The elements of `text`, serialized as children of a `jabber:client` stanza; nil if it
    /// does not parse within `limits`.
    static func elements(_ text: String, limits: XMLStreamLimits) -> [XMLElement]? {
        let parser = XMLStreamParser(limits: limits)
        let wrapped = "<stream:stream xmlns='jabber:client' xmlns:stream='\(XMLElement.streamNamespace)'><message>" + text + "</message>"
        guard let events = try? parser.feed(wrapped) else { return nil }
        for case .stanza(let stanza) in events { return stanza.elements }
        return nil
    }
}
