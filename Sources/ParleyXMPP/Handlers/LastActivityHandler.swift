import ParleyCore
import ParleyProtocol

/// Last Activity (XEP-0012) for a user's bare JID: Parley's "last seen". An online user is
/// answered with `seconds='0'`, one offline with the seconds since their last connection
/// closed (kept to the minute). Who may ask is the user's `lastSeen` privacy choice, as for
/// a native `user.lastSeen` (`LastSeenService`): anyone else gets `<forbidden/>` (§4), and a
/// user never seen offline `<item-not-found/>`. The server's own uptime is not answered.
struct LastActivityHandler: XMPPHandler {
    var payloads: [XMPPPayload] { [XMPPPayload(Namespace.lastActivity, "query")] }
    var features: [String] { [Namespace.lastActivity] }

    func answer(_ request: XMPPRequest, context: isolated some XMPPHandlerContext) async throws -> XMLElement? {
        guard request.type == "get", !request.toServer, let target = request.target, target.resource == nil else {
            throw request.unsupported
        }
        let services = context.services
        let user = request.toSelf ? request.me.user : try await services.directory.user(for: target)
        let seen = try await services.conversations.lastSeen.lastSeen(of: user, for: request.me.user)
        let seconds: Int64
        if seen.online == true {
            seconds = 0
        } else if let at = seen.lastSeenAt {
            seconds = services.conversations.lastSeen.secondsSince(at)
        } else if seen.online == false {
            throw StanzaError.itemNotFound("never seen")
        } else {
            throw StanzaError(type: "auth", condition: "forbidden", "this user's last activity is not shown to you")
        }
        return XMLElement("query", namespace: Namespace.lastActivity, ["seconds": String(seconds)])
    }
}
