import ParleyCore
import ParleyNet
import ParleyProtocol

// A friend's edit, recall or reaction made anywhere reaches a Jabber client in their 1:1
// chat, and a member's in a group chat the stream joined, as the stanzas of XEP-0308,
// XEP-0424 and XEP-0444 (`MessageActionHandler` reads the same stanzas from the client).
extension XMPPSession {
    /// A friend's edit, recall or reaction in this user's 1:1 chat with them, or a member's in
    /// a joined group chat, as the stanza an XMPP client understands; nil for anything else
    /// (pins, own actions). In a room a retraction or reaction names the message by its
    /// `<stanza-id>` (the server id), a correction by the id it came with (XEP-0308).
    func messageActionStanza(_ update: MessageUpdate) -> XMLElement? {
        guard let me, let actor = update.event.sender, let system = update.event.system else { return nil }
        let conversation = update.event.conversationId
        // Someone else's message recalled by a moderator is a moderation (XEP-0425) for every
        // occupant, the moderator's own streams included.
        if system.type == .messageRecalled, update.message.sender != actor, let joined = state.joined[conversation] {
            return moderationStanza(update, by: actor, in: joined, to: me.full)
        }
        guard actor != me.user else { return nil }
        var original = update.message.clientId ?? update.message.id
        var stanza: XMLElement
        if state.directPeers[conversation] == actor {
            stanza = XMLElement("message", ["type": "chat", "id": update.event.clientId ?? update.event.id,
                                            "from": address(of: actor).description, "to": me.full.description])
        } else if let joined = state.joined[conversation] {
            if system.type != .messageEdited { original = update.message.id }
            stanza = XMLElement("message", ["type": "groupchat", "id": update.event.clientId ?? update.event.id,
                                            "from": "\(joined.jid.bare)/\(nick(of: actor))", "to": me.full.description])
        } else {
            return nil
        }
        switch system.type {
        case .messageEdited:
            guard let text = update.message.text else { return nil }
            stanza.append(XMLElement("body", [:], text: text))
            stanza.append(XMLElement("replace", namespace: Namespace.correction, ["id": original]))
        case .messageRecalled:
            stanza.append(XMLElement("retract", namespace: Namespace.retraction, ["id": original]))
            stanza.append(XMLElement("fallback", namespace: "urn:xmpp:fallback:0", ["for": Namespace.retraction]))
            stanza.append(XMLElement("body", [:], text: "/me recalled a message"))
        case .reactionAdded, .reactionRemoved:
            let emoji = (update.message.reactions ?? []).filter { $0.users.contains(actor) }.map(\.emoji)
            stanza.append(XMLElement("reactions", namespace: Namespace.reactions, ["id": original],
                                     children: emoji.map { XMLElement("reaction", namespace: Namespace.reactions, [:], text: $0) }))
            stanza.append(XMLElement("store", namespace: "urn:xmpp:hints", [:]))
        default:
            return nil
        }
        return stanza
    }

    /// A moderator's recall of an occupant's message as XEP-0425's retraction from the room:
    /// `<retract id='stanza-id'>` with `<moderated by='room/moderator'>`, and a fallback body.
    func moderationStanza(_ update: MessageUpdate, by moderator: UserID, in joined: JoinedRoom, to me: JID) -> XMLElement {
        let room = joined.jid.bare
        return XMLElement("message", ["type": "groupchat", "id": update.event.clientId ?? update.event.id,
                                      "from": room.description, "to": me.description], children: [
            XMLElement("retract", namespace: Namespace.retraction, ["id": update.message.id], children: [
                XMLElement("moderated", namespace: Namespace.moderation, ["by": "\(room)/\(nick(of: moderator))"]),
            ]),
            XMLElement("fallback", namespace: "urn:xmpp:fallback:0", ["for": Namespace.retraction]),
            XMLElement("body", [:], text: "This message has been moderated"),
        ])
    }
}
