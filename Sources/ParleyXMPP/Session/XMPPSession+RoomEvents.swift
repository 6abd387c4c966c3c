import ParleyCore
import ParleyNet
import ParleyProtocol

// Group chat events rendered for a stream that joined the room (XEP-0045): messages,
// occupants coming and going, and subject changes (joining and talking are `MUCHandler`'s).
extension XMPPSession {
    /// A stored message as a groupchat stanza, if this session has joined its conversation.
    /// The user's own messages (from other devices, or reflected) come too, as everyone in a
    /// room sees them.
    func groupStanza(_ message: Message) -> XMLElement? {
        guard let me, let joined = state.joined[message.conversationId], let sender = message.sender else { return nil }
        let nick = sender == me.user ? joined.nick : self.nick(of: sender)
        guard var stanza = MUCHandler.groupStanza(message, in: joined, senderNick: nick, to: me.full, services: services, delayed: false) else {
            return nil
        }
        // Native @mentions as XEP-0372 references to the occupants.
        for reference in MUCMentions.references(for: message, room: joined.jid, nick: { $0 == me.user ? joined.nick : self.nick(of: $0) }) {
            stanza.append(reference)
        }
        return stanza
    }

    /// A system notice of a joined group chat in XMPP's terms: someone entering or leaving
    /// (a room), joining, leaving or removed (a group), as occupant presence; a new owner as
    /// their new affiliation. Info changes become a subject message (`announceSubject`).
    func occupantPresence(_ message: Message) -> XMLElement? {
        guard let me, let system = message.system, let actor = system.actor,
              let joined = state.joined[message.conversationId] else { return nil }
        var user = actor
        var affiliation: MUCHandler.Affiliation = joined.kind == .group ? .member : .none
        var leaving = false
        var statuses: [Int] = []
        switch system.type {
        case .roomEntered, .memberJoined:
            break
        case .roomLeft, .memberLeft:
            leaving = true
        case .memberRemoved:
            guard let target = system.target else { return nil }
            // XEP-0045's kick (307): the removed member is out of the room at once.
            user = target
            leaving = true
            statuses = [307]
        case .ownerChanged:
            guard let target = system.target else { return nil }
            user = target
            affiliation = .owner
        case .memberBanned:
            guard let target = system.target else { return nil }
            // XEP-0045's ban (301): the user is an outcast, out of the room at once.
            user = target
            leaving = true
            statuses = [301]
        case .adminAdded, .adminRemoved:
            guard let target = system.target else { return nil }
            user = target
            affiliation = system.type == .adminAdded ? .admin : .member
        default:
            return nil
        }
        if user == me.user {
            // This session's own entry was answered when it joined, and its own leaving over
            // XMPP too (the room is no longer joined then). What is left: the user removed,
            // leaving from another device, or made owner.
            guard leaving || system.type == .ownerChanged || system.type == .adminAdded || system.type == .adminRemoved else { return nil }
            if leaving { state.joined.removeValue(forKey: message.conversationId) }
            statuses.append(110)
        }
        let nick = user == me.user ? joined.nick : self.nick(of: user)
        let shown: MUCHandler.Affiliation = statuses.contains(301) ? .outcast : (leaving ? .none : affiliation)
        return XMLElement("presence", ["type": leaving ? "unavailable" : nil, "from": "\(joined.jid)/\(nick)", "to": me.full.description],
                          children: [MUCHandler.mucUser(shown, role: leaving ? "none" : nil, statuses: statuses)])
    }

    /// An `info_changed` notice of a joined group chat as its new subject, from the occupant
    /// who changed it. The notice names the fields, not their values, so the subject is read.
    func announceSubject(_ message: Message) {
        guard let me, let system = message.system, system.type == .infoChanged,
              let fields = system.fields, fields.contains("description") || fields.contains("name"),
              let joined = state.joined[message.conversationId] else { return }
        let nick = system.actor.map { actor in
            actor == me.user ? joined.nick : self.nick(of: actor)
        }
        let reference = ConversationReference(conversationId: message.conversationId)
        let services = self.services
        Task {
            let subject: String
            if joined.kind == .group {
                guard let info = try? await services.groups.info(for: me.user, reference) else { return }
                subject = MUCHandler.subject(name: info.name, description: info.description)
            } else {
                guard let info = try? await services.rooms.info(for: me.user, reference) else { return }
                subject = MUCHandler.subject(name: info.name, description: info.description)
            }
            self.send(MUCHandler.subjectMessage(subject, room: joined.jid, by: nick, to: me.full))
        }
    }
}
