import ParleyCore
import ParleyNet
import ParleyProtocol

/// What a handler sees of the stream it serves. `XMPPSession` is the real one; tests use a
/// context that records what was sent. An actor: a handler runs isolated to it (on the
/// session's loop), so these calls are plain synchronous ones.
protocol XMPPHandlerContext: Actor {
    /// The core services and the gateway's configuration.
    var services: XMPPServices { get }
    /// The stream's connection token: events it causes leave it out.
    var token: ConnectionToken { get }
    /// The handler table the stream dispatches through (disco lists its features).
    var handlers: XMPPHandlerTable { get }
    /// Sends a stanza to the client (stream management counts it).
    func send(_ element: XMLElement)
    /// Where a send started with no task comes back to after the store's commit
    /// (`ConversationService.send`'s completion form): this stream's own executor.
    nonisolated var completionHop: any CompletionHop { get }
    /// The send with no task this stream's current stanza started
    /// (`MessageHandler.startDirect`) has had its outcome handled: the stream goes on with
    /// its next stanza (it handles none meanwhile, so stanzas keep their order).
    func directSendFinished()
    /// Remembers a friend's address and 1:1 conversation for the stream's later stanzas.
    func learn(_ friend: Friend)
    /// Whether the client gets copies of what the user sends elsewhere (XEP-0280).
    func setCarbons(_ enabled: Bool)
    /// The signed-in account changed (its profile was updated by this stream).
    func accountChanged(_ account: Account)
    /// The conversation and kind of a group chat this stream has joined, by the room's JID.
    func joinedChat(_ room: JID) -> (ConversationID, ConversationKind)?
    /// The group chat this stream has joined, by the room's JID, with how it joined.
    func joinedRoom(_ room: JID) -> (ConversationID, JoinedRoom)?
    /// Records that the stream joined (`room` set) or left (nil) a group chat.
    func setJoined(_ room: JoinedRoom?, for conversation: ConversationID)
    /// The local part of a user's address as this stream knows it (nil: not met yet).
    func localPart(of user: UserID) -> String?
    /// Remembers a user's address (an occupant met in a room).
    func remember(_ profile: UserProfile)
    /// The 1:1 conversation with a friend this stream knows from its roster; nil if unknown.
    func knownConversation(with user: UserID) -> ConversationID?
    /// The client sent an available presence; true if it is the stream's first (RFC 6121
    /// §4.2), which holds live 1:1 messages back until `catchUp` has sent those that waited.
    func becomeAvailable() -> Bool
    /// The client sent unavailable presence on its open stream: it gets no more presence
    /// until it is available again.
    func becomeUnavailable()
    /// The friends this stream knows of (from its roster).
    func friendIDs() -> [UserID]
    /// Sends the unread 1:1 messages that waited for the stream's first presence, then lets
    /// live ones through.
    func catchUp(me: XMPPIdentity) async
    /// Sends the last published item of each PEP node the client asks events of (`+notify`)
    /// of `owners` (nil: the user and all friends), as events (XEP-0163 §6.1.2); if the
    /// client's caps are not known yet, once they are.
    func sendLastPublished(me: XMPPIdentity, of owners: [UserID]?) async
}

extension XMPPHandlerContext {
    /// The address of a user as this stream knows it (friends by username, others by id).
    func address(of user: UserID) -> JID {
        JID(local: nick(of: user), domain: services.directory.domain)
    }

    /// A user's nickname in rooms and the local part of their address: their username once
    /// met, else `~<id>`.
    func nick(of user: UserID) -> String {
        localPart(of: user) ?? "~\(user.rawValue)"
    }

    /// Sends a message's body as the user, as an image or else a file if it links to an
    /// upload of this server's (`XMPPServices.sendParameters`). A link to an upload that is
    /// not the sender's own is only text: Parley's messages carry the sender's uploads.
    /// Its sending resource and `<origin-id>` are noted first (`XMPPResources.sending`), so
    /// that its recipients see it from the full JID, with the origin id kept.
    func sendBody(of message: XMLElement, _ body: String, in conversation: ConversationID,
                  me: XMPPIdentity, mentions: [UserID] = []) async throws(ProtocolError) -> Message {
        let services = self.services
        var parameters = services.sendParameters(for: message, body: body, in: conversation)
        if !mentions.isEmpty, parameters.kind == .text { parameters.mentions = mentions }
        noteSending(message, clientID: parameters.clientId, me: me)
        do throws(ProtocolError) {
            return try await services.conversations.send(from: me.user, parameters, connection: token).message
        } catch {
            if error.field == "mentions" {
                // Someone named is not a member (a nick that is another user's): sent plain.
                parameters.mentions = nil
                return try await services.conversations.send(from: me.user, parameters, connection: token).message
            }
            guard parameters.kind == .image && error.field == "mediaId" else { throw error }
        }
        // Not an image: the sender's upload of another type is a file message.
        var file = parameters
        file.kind = .file
        do throws(ProtocolError) {
            return try await services.conversations.send(from: me.user, file, connection: token).message
        } catch {
            guard error.field == "mediaId" else { throw error }
        }
        return try await services.conversations.send(
            from: me.user, SendParameters(conversationId: conversation, clientId: parameters.clientId, kind: .text, text: body),
            connection: token).message
    }
}

extension XMPPHandlerContext {
    /// Notes the resource sending `message` (stored with `clientID`) and its `<origin-id>`
    /// (`XMPPResources.sending`), before the send, so that its recipients see it from the
    /// full JID, with the origin id kept.
    func noteSending(_ message: XMLElement, clientID: String, me: XMPPIdentity) {
        guard let resource = me.full.resource else { return }
        let originID = message.child("origin-id", namespace: Namespace.stanzaID)?["id"]
        services.resources.sending(me.user, clientID: clientID, origin: XMPPResources.Origin(resource: resource, originID: originID))
    }
}

/// A group or room a stream has joined as a multi-user chat.
struct JoinedRoom: Sendable {
    /// The room's bare JID, as the client joined it.
    var jid: JID
    /// This user's nickname in it (their address's local part).
    var nick: String
    var kind: ConversationKind
}
