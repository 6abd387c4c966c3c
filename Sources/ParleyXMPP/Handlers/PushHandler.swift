import ParleyCore
import ParleyProtocol

/// Push notifications (XEP-0357), the server's side: `<enable jid node>` registers an app
/// server to be told, by a pubsub publish of a summary, of messages that come while the user
/// is away (`XMPPPushNotifier`); `<disable jid [node]>` removes it. The app server must be an
/// account of this server (a Jabber client or bot signed in to it): there is no
/// server-to-server federation to reach one elsewhere, so another domain is `not-acceptable`.
struct PushHandler: XMPPHandler {
    var payloads: [XMPPPayload] { [XMPPPayload(Namespace.push, "enable"), XMPPPayload(Namespace.push, "disable")] }
    var features: [String] { [Namespace.push] }

    func answer(_ request: XMPPRequest, context: isolated some XMPPHandlerContext) async throws -> XMLElement? {
        guard request.type == "set", request.toSelf else { throw request.unsupported }
        let services = context.services
        guard let text = request.query["jid"], let service = JID(text) else { throw StanzaError.badRequest("give the app server's jid") }
        let node = request.query["node"]
        if request.query.name == "disable" {
            services.pushRegistrations.disable(request.me.user, service: service, node: node)
            return nil
        }
        guard let node, !node.isEmpty else { throw StanzaError.badRequest("give the node to publish to") }
        guard service.domain == services.directory.domain, service.local != nil else {
            throw StanzaError(type: "cancel", condition: "not-acceptable",
                              "the app server must be an account of \(services.directory.domain) (no server-to-server)")
        }
        let serviceUser = try await services.directory.user(for: service)
        let registration = XMPPPushRegistrations.Registration(service: service, serviceUser: serviceUser, node: node,
                                                             options: DataForm(in: request.query))
        guard services.pushRegistrations.enable(request.me.user, registration) else {
            throw StanzaError(type: "wait", condition: "resource-constraint",
                              "at most \(services.pushRegistrations.limit) push registrations (--xmpp-max-push-registrations)")
        }
        return nil
    }
}
