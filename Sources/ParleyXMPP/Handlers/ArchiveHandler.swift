import Foundation
import ParleyCore
import ParleyProtocol

/// Message archive management (XEP-0313) over `ConversationService.archive`: to the user's
/// own JID, the archive of all their 1:1 conversations, or of the one with the `with`
/// contact; to a room JID (through the conference service), the group's (or the room's)
/// history. Filters by time (`start`, `end`), pages with result set management (XEP-0059)
/// both ways, and sends each message as a forwarded result, oldest first, before the
/// `<fin>`. Archive ids are message ids. `withtext` filters by full text (the message search,
/// `ConversationService.archiveSearch`); an `iq get` of `<query/>` answers the form's fields.
struct ArchiveHandler: XMPPHandler {
    var payloads: [XMPPPayload] { [XMPPPayload(Namespace.mam, "query")] }
    var features: [String] { [Namespace.mam] }

    func answer(_ request: XMPPRequest, context: isolated some XMPPHandlerContext) async throws -> XMLElement? {
        guard request.toSelf else { throw request.unsupported }
        if request.type == "get" { return Self.form }
        guard request.type == "set" else { throw request.unsupported }
        return try await Self.archive(request.query, me: request.me, room: nil, context: context)
    }

    /// The query's form (XEP-0313 §6): the fields a query may fill, `withtext` among them.
    static var form: XMLElement {
        func field(_ name: String, _ type: String) -> XMLElement {
            XMLElement("field", namespace: "jabber:x:data", ["var": name, "type": type])
        }
        var formType = field("FORM_TYPE", "hidden")
        formType.append(XMLElement("value", namespace: "jabber:x:data", [:], text: Namespace.mam))
        return XMLElement("query", namespace: Namespace.mam, [:], children: [
            XMLElement("x", namespace: "jabber:x:data", ["type": "form"], children: [
                formType, field("with", "jid-single"), field("start", "text-single"), field("end", "text-single"),
                field("withtext", "text-single"),
            ]),
        ])
    }

    /// Sends the archive's page `query` asks for and returns its `<fin>`; `room` is the room's
    /// JID for a room's archive.
    static func archive(_ query: XMLElement, me: XMPPIdentity, room: JID?, context: isolated some XMPPHandlerContext) async throws -> XMLElement {
        let services = context.services
        let form = DataForm(in: query)
        var parameters = ArchiveQuery(scope: .direct)
        if let start = form?["start"] { parameters.start = try time(start, field: "start") }
        if let end = form?["end"] { parameters.end = try time(end, field: "end") }
        parameters.text = form?["withtext"]
        let with = try form?["with"].map { text throws(StanzaError) -> JID in
            guard let jid = JID(text) else { throw StanzaError(type: "modify", condition: "jid-malformed", "'with' is not a JID") }
            return jid
        }
        var roomJID: JID?
        if let room {
            if with != nil {
                throw StanzaError(type: "cancel", condition: "feature-not-implemented", "a room's archive is not filtered by occupant")
            }
            if let group = ConferenceHandler.groupID(room.local) {
                parameters.scope = .conversation(group)
            } else if let (conversation, _) = context.joinedChat(room) {
                parameters.scope = .conversation(conversation)
            } else {
                throw StanzaError(type: "cancel", condition: "not-acceptable", "join the room first")
            }
            roomJID = room.bare
        } else if let with {
            let peer = try await services.directory.user(for: with)
            parameters.scope = .conversation(try await services.social.directConversation(of: me.user, with: peer))
        }
        if let page = query.child("set", namespace: Namespace.resultSetManagement) {
            if let max = page.child("max") {
                guard let limit = Int(max.text.trimmingWhitespace), limit >= 0 else { throw StanzaError.badRequest("<max> is a count") }
                parameters.limit = limit
            }
            parameters.after = page.child("after").map(\.text.trimmingWhitespace).flatMap { $0.isEmpty ? nil : $0 }
            if let before = page.child("before") {
                // `<before/>` asks for the last page; with an id, the page before it.
                parameters.fromEnd = true
                let marker = before.text.trimmingWhitespace
                parameters.before = marker.isEmpty ? nil : marker
            }
        }
        let archive = try await services.conversations.archive(for: me.user, parameters)
        for profile in archive.users.values { services.directory.remember(profile) }
        for message in archive.messages {
            guard let forwarded = archived(message, in: archive, room: roomJID, me: me, services: services) else { continue }
            context.send(XMLElement("message", ["to": me.full.description, "from": (roomJID ?? me.bare).description], children: [
                XMLElement("result", namespace: Namespace.mam, ["queryid": query["queryid"], "id": XMPPServices.archiveID(message)], children: [
                    XMLElement("forwarded", namespace: Namespace.forward, [:], children: [
                        XMLElement("delay", namespace: Namespace.delay, ["stamp": Timestamp.iso8601(milliseconds: message.createdAt)]),
                        forwarded,
                    ]),
                ]),
            ]))
        }
        var set = XMLElement("set", namespace: Namespace.resultSetManagement)
        if let first = archive.messages.first, let last = archive.messages.last {
            set.append(XMLElement("first", namespace: Namespace.resultSetManagement, [:], text: XMPPServices.archiveID(first)))
            set.append(XMLElement("last", namespace: Namespace.resultSetManagement, [:], text: XMPPServices.archiveID(last)))
        }
        set.append(XMLElement("count", namespace: Namespace.resultSetManagement, [:], text: String(archive.count)))
        return XMLElement("fin", namespace: Namespace.mam, ["complete": archive.complete ? "true" : "false", "queryid": query["queryid"]],
                          children: [set])
    }

    /// An archived message as the stanza it was: in a room, from the sender's occupant JID;
    /// in a 1:1 conversation, between the user and the other person.
    private static func archived(_ message: Message, in archive: ArchivePage, room: JID?, me: XMPPIdentity,
                                 services: XMPPServices) -> XMLElement? {
        let jid = { (user: UserID) -> JID in
            archive.users[user].map { services.directory.jid(of: $0) } ?? JID(local: "~\(user.rawValue)", domain: services.directory.domain)
        }
        guard let sender = message.sender else { return nil }
        if let room {
            guard var stanza = services.plainStanza(message, from: JID(local: room.local, domain: room.domain, resource: jid(sender).local),
                                                    to: me.bare) else { return nil }
            stanza["type"] = "groupchat"
            return stanza
        }
        guard let peer = archive.peers[message.conversationId] else { return nil }
        let outgoing = sender == me.user
        return services.plainStanza(message, from: outgoing ? me.bare : jid(peer), to: outgoing ? jid(peer) : me.bare)
    }

    /// An XEP-0082 date and time as milliseconds since the epoch; `bad-request` otherwise.
    static func time(_ text: String, field: String) throws(StanzaError) -> Int64 {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let trimmed = text.trimmingWhitespace
        guard let date = formatter.date(from: trimmed) ?? ISO8601DateFormatter().date(from: trimmed) else {
            throw StanzaError.badRequest("'\(field)' is not a date and time such as 2026-01-31T12:00:00Z")
        }
        return Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }
}
