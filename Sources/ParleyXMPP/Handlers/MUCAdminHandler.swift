import ParleyCore
import ParleyProtocol

/// Multi-user chat's messages beyond talking (XEP-0045 §7.5, §8.1, XEP-0249): private
/// messages, the subject and invitations (registration, moderation and configuration are
/// `iq`s, `ConferenceHandler`'s). Each maps onto the service that holds the rule: a private
/// message is a 1:1 message (friends only), the subject is the description
/// (`GroupService.update`/`RoomService.update`, any member).
struct MUCAdminHandler: Sendable {
    // MARK: Private messages (XEP-0045 §7.5)

    /// A message to `room/nick` is a message to that user's 1:1 conversation with this one:
    /// Parley has no private channel inside a room, and 1:1 conversations are between friends,
    /// so someone not a friend gets `forbidden`. The recipient sees it from the sender's own
    /// address, with the rest of their chat.
    func handlePrivateMessage(_ message: XMLElement, to: JID, me: XMPPIdentity, context: isolated some XMPPHandlerContext) async {
        let services = context.services
        do {
            let recipient = try await ConferenceHandler.occupant(to.resource ?? "", directory: services.directory)
            guard recipient != me.user else { throw StanzaError.badRequest("that is you") }
            try await context.handlers.messages.sendDirect(message, to: recipient, me: me, context: context)
        } catch {
            var reply = StanzaError.from(error)
            if let core = error as? ProtocolError, core.code == .notFriends {
                reply.text = "private messages are 1:1 messages, which Parley allows between friends only"
            }
            context.send(reply.reply(to: message, from: MUCHandler.domain(of: services)))
        }
    }

    // MARK: Subject (XEP-0045 §8.1)

    /// An occupant's `<subject>` is the description of the group or room (any member may
    /// change it); an empty one removes the description, so the name shows again. Everyone
    /// hears of it through the `info_changed` notice (the session's `announceSubject`).
    func changeSubject(_ message: XMLElement, to subject: String, conversation: ConversationID, kind: ConversationKind,
                       me: XMPPIdentity, context: isolated some XMPPHandlerContext) async {
        let services = context.services
        let update = GroupUpdate(conversationId: conversation, description: subject.isEmpty ? .clear : .set(subject))
        do {
            if kind == .group {
                _ = try await services.groups.update(by: me.user, update)
            } else {
                _ = try await services.rooms.update(by: me.user, update)
            }
        } catch {
            context.send(StanzaError.from(error).reply(to: message, from: MUCHandler.domain(of: services)))
        }
    }

    // MARK: Invitations (XEP-0045 §7.8.2, XEP-0249)

    /// A mediated invitation: the room passes it to the invitee's XMPP sessions. Joining a
    /// group is the joiner's own act (registering with the room, `group.join`); a group that
    /// is not open lets them in by the invitation, which follows the native rule
    /// (`group.invite.friend`: a friend, not banned, and on an `approval` group only from an
    /// admin). A Parley room is open to anyone not banned.
    func handleMediatedInvitation(_ message: XMLElement, _ invitation: XMLElement, room: JoinedRoom, me: XMPPIdentity,
                                  conversation: ConversationID, context: isolated some XMPPHandlerContext) async {
        let services = context.services
        do {
            guard let invitee = invitation["to"].flatMap(JID.init) else { throw StanzaError.badRequest("an invitation names the invitee (to)") }
            let user = try await services.directory.user(for: invitee)
            try await checkInvitable(user, me: me.user, services: services)
            if room.kind == .group,
               try await services.groups.info(for: me.user, ConversationReference(conversationId: conversation)).joinMode ?? .open != .open {
                _ = try await services.groups.inviteFriend(by: me.user, MemberReference(conversationId: conversation, userId: user))
            }
            let reason = invitation.child("reason")?.text
            let invite = XMLElement("x", namespace: Namespace.mucUser, [:], children: [
                XMLElement("invite", namespace: Namespace.mucUser, ["from": me.bare.description], children: reason.map {
                    [XMLElement("reason", namespace: Namespace.mucUser, [:], text: $0)]
                } ?? []),
            ])
            let body = XMLElement("body", [:], text: "\(me.bare) invites you to \(room.jid)" + (reason.map { ": \($0)" } ?? ""))
            services.registry.forward(ForwardedStanza(type: nil, id: message["id"], from: room.jid.description,
                                                      children: invite.serialized() + body.serialized()), to: [user], excluding: nil)
        } catch {
            context.send(StanzaError.from(error).reply(to: message, from: MUCHandler.domain(of: services)))
        }
    }

    /// A direct invitation (XEP-0249) to a user: passed on as sent, if the inviter is in the
    /// room they invite to. Its body, if any, is not a chat message and is not stored.
    func forwardDirectInvitation(_ message: XMLElement, _ invitation: XMLElement, to recipient: UserID, me: XMPPIdentity,
                                 context: isolated some XMPPHandlerContext) async throws {
        let services = context.services
        guard let room = invitation["jid"].flatMap(JID.init), room.domain == MUCHandler.domain(of: services), context.joinedRoom(room) != nil else {
            throw StanzaError(type: "modify", condition: "not-acceptable", "invite to a room you are in (its jid)")
        }
        try await checkInvitable(recipient, me: me.user, services: services)
        services.registry.forward(ForwardedStanza(type: message["type"] ?? "normal", id: message["id"], from: me.full.description,
                                                  children: message.elements.map { $0.serialized() }.joined()), to: [recipient], excluding: nil)
    }

    /// Whether an invitation may reach `user`: not the inviter, and no block between the two.
    private func checkInvitable(_ user: UserID, me: UserID, services: XMPPServices) async throws {
        guard user != me else { throw StanzaError.badRequest("you cannot invite yourself") }
        try await services.social.checkReachable(user, from: me)
    }
}
