import ParleyCore
import ParleyProtocol

// Message archive management (XEP-0313) over a 1:1 conversation's history: a query names the
// friend (`with`), pages backwards with result set management (`<max>`, `<before>`), and each
// message comes as a forwarded result, oldest first, before the `<fin>`.
extension XMPPSession {
    func archive(_ query: XMLElement, me: (user: UserID, bare: JID, full: JID)) async throws -> XMLElement {
        let form = query.child("x", namespace: Namespace.dataForms)
        let fields = Dictionary((form?.elements ?? []).filter { $0.name == "field" }.compactMap { field in
            field["var"].map { ($0, field.child("value")?.text ?? "") }
        }, uniquingKeysWith: { first, _ in first })
        guard let with = fields["with"].flatMap(JID.init) else {
            throw StanzaError(type: "cancel", condition: "feature-not-implemented", "name the contact: archive queries need a 'with' field")
        }
        if fields["start"] != nil || fields["end"] != nil {
            throw StanzaError(type: "cancel", condition: "feature-not-implemented", "only 'with' is supported; page with <before>")
        }
        let page = query.child("set", namespace: Namespace.resultSetManagement)
        if page?.child("after") != nil {
            throw StanzaError(type: "cancel", condition: "feature-not-implemented", "page backwards with <before>")
        }
        var before: Int64?
        if let marker = page?.child("before")?.text.trimmingWhitespace, !marker.isEmpty {
            guard let seq = marker.split(separator: "-").last.flatMap({ Int64($0) }) else {
                throw StanzaError.itemNotFound("no such archive id")
            }
            before = seq
        }
        let limit = page?.child("max").flatMap { Int($0.text.trimmingWhitespace) }
        let peer = try await services.directory.user(for: with)
        let conversation = try await services.social.directConversation(of: me.user, with: peer)
        let history = try await services.conversations.history(for: me.user, HistoryParameters(conversationId: conversation, before: before,
                                                                                               limit: limit))
        let peerJID = address(of: peer)
        for message in history.messages {
            let outgoing = message.sender == me.user
            guard let forwarded = plainStanza(message, from: outgoing ? me.bare : peerJID, to: outgoing ? peerJID : me.bare) else { continue }
            send(XMLElement("message", ["to": me.full.description, "from": me.bare.description], children: [
                XMLElement("result", namespace: Namespace.mam, ["queryid": query["queryid"], "id": Self.archiveID(message)], children: [
                    XMLElement("forwarded", namespace: Namespace.forward, [:], children: [
                        XMLElement("delay", namespace: Namespace.delay, ["stamp": Timestamp.iso8601(milliseconds: message.createdAt)]),
                        forwarded,
                    ]),
                ]),
            ]))
        }
        var set = XMLElement("set", namespace: Namespace.resultSetManagement)
        if let first = history.messages.first, let last = history.messages.last {
            set.append(XMLElement("first", namespace: Namespace.resultSetManagement, [:], text: Self.archiveID(first)))
            set.append(XMLElement("last", namespace: Namespace.resultSetManagement, [:], text: Self.archiveID(last)))
        }
        return XMLElement("fin", namespace: Namespace.mam, ["complete": history.hasMore ? "false" : "true", "queryid": query["queryid"]],
                          children: [set])
    }
}
