public import ParleyCore
import ParleyNet
public import ParleyProtocol

/// Publishes XEP-0357 summary notifications to the app servers of users who enabled push
/// (`PushHandler`) and are away: `isAway` is the server's own rule for Web Push (no
/// connection, or every one in the background, a CSI-inactive stream or one whose connection
/// broke and waits to be resumed included). One publish per message per registration, from
/// the user's bare JID, as an `iq` set handed to the app server's XMPP streams; its answer
/// is not awaited (a lost notification only means a later one tells).
///
/// The summary (`urn:xmpp:push:summary`) holds `message-count` (messages notified since the
/// registration was made: clients renew it at every connection) and `last-message-sender`
/// (the sender's bare JID); never the body, which would pass through the app server and the
/// phone vendor's push service.
public final class XMPPPushNotifier: MessageNotifying {
    private let services: XMPPServices
    private let isAway: @Sendable (UserID) -> Bool

    public init(services: XMPPServices, isAway: @escaping @Sendable (UserID) -> Bool) {
        self.services = services
        self.isAway = isAway
    }

    public func stored(_ message: Message, for members: [UserID]) {
        guard message.kind != .system, let sender = message.sender else { return }
        let registrations = services.pushRegistrations
        for user in registrations.registered(among: members) where user != sender && isAway(user) {
            let list = registrations.notify(user)
            guard !list.isEmpty else { continue }
            Task { [services] in
                // The JIDs need the users' local parts: one read, off the sender's loop.
                guard let me = try? await services.accounts.profile(id: user),
                      let from = try? await services.accounts.profile(id: sender) else { return }
                for registration in list {
                    Self.publish(registration, for: services.directory.jid(of: me), sender: services.directory.jid(of: from),
                                 services: services)
                }
            }
        }
    }

    /// The publish `iq` for one registration, handed to the app server's streams.
    static func publish(_ registration: XMPPPushRegistrations.Registration, for user: JID, sender: JID, services: XMPPServices) {
        let summary = DataForm(type: "form", fields: [
            ("FORM_TYPE", ["urn:xmpp:push:summary"]),
            ("message-count", [String(registration.notified)]),
            ("last-message-sender", [sender.description]),
        ])
        var publish = XMLElement("pubsub", namespace: Namespace.pubsub, [:], children: [
            XMLElement("publish", namespace: Namespace.pubsub, ["node": registration.node], children: [
                XMLElement("item", namespace: Namespace.pubsub, [:], children: [
                    XMLElement("notification", namespace: Namespace.push, [:], children: [summary.element()]),
                ]),
            ]),
        ])
        if let options = registration.options {
            publish.append(XMLElement("publish-options", namespace: Namespace.pubsub, [:], children: [options.element()]))
        }
        services.registry.forward(ForwardedStanza(stanza: "iq", type: "set", id: "push-" + Base64.encode(CryptoRandom.bytes(6)),
                                                  from: user.description, children: publish.serialized()),
                                  to: [registration.serviceUser], excluding: nil)
    }
}
