/// The gateway's handlers by the `iq` payload they answer, and the server's disco features:
/// built once by a `Builder` when the server starts and never changed, so every session
/// reads it without a lock.
struct XMPPHandlerTable: Sendable {
    private let exact: [XMPPPayload: any XMPPHandler]
    private let byNamespace: [String: any XMPPHandler]
    /// Presence a client addresses to a user, by type (subscriptions).
    private let byPresenceType: [String: any XMPPPresenceHandler]
    /// Services on their own domains (`upload.<domain>`, `conference.<domain>`), answering
    /// every payload sent to them; `withLocalParts`: also to its JIDs' local parts (rooms).
    private let byService: [String: (handler: any XMPPHandler, withLocalParts: Bool)]
    /// Chat states and receipts on 1:1 messages (a field: no lookup on that path).
    let signals: ChatSignalHandler
    /// Every `<message>` (a field, as are the next three: every stanza of their kind takes
    /// them, with no lookup).
    let messages = MessageHandler()
    /// Every `<presence>`.
    let presence = PresenceHandler()
    /// Joining, leaving and talking in group chats.
    let muc = MUCHandler()
    /// Private messages, subjects and invitations in group chats.
    let mucAdmin = MUCAdminHandler()
    /// Corrections, retractions, reactions and replies in 1:1 chats (XEP-0308, 0424, 0444,
    /// 0461), asked by `messages` first.
    let messageActions = MessageActionHandler()
    /// The server's `<feature var>`s, in the order handlers were registered.
    let serverFeatures: [String]

    /// The handler for a payload: one registered for its namespace and name, else for its
    /// whole namespace; nil if none.
    func handler(for query: XMLElement) -> (any XMPPHandler)? {
        exact[XMPPPayload(query.namespace, query.name)] ?? byNamespace[query.namespace]
    }

    /// The handler for a `<presence type>` addressed to a user; nil (ignored: directed
    /// availability and probes, since Parley tells friends itself) if none.
    func presenceHandler(for type: String) -> (any XMPPPresenceHandler)? {
        byPresenceType[type]
    }

    /// The service handler for an `iq` addressed to `target`: a service domain registered
    /// with `register(_:service:)` (a JID with a local part only if it was registered with
    /// them); nil otherwise.
    func service(for target: JID?) -> (any XMPPHandler)? {
        guard let target, let entry = byService[target.domain], target.local == nil || entry.withLocalParts else { return nil }
        return entry.handler
    }

    /// Collects handlers and features; `build` freezes them.
    struct Builder {
        private var exact: [XMPPPayload: any XMPPHandler] = [:]
        private var byNamespace: [String: any XMPPHandler] = [:]
        private var byService: [String: (handler: any XMPPHandler, withLocalParts: Bool)] = [:]
        private var byPresenceType: [String: any XMPPPresenceHandler] = [:]
        private var features: [String] = []

        init() {}

        /// Registers `handler` for its payloads and features. A payload already taken is a
        /// programming error.
        mutating func register(_ handler: any XMPPHandler) {
            for payload in handler.payloads {
                if let name = payload.name {
                    precondition(exact[XMPPPayload(payload.namespace, name)] == nil, "two handlers for <\(name) xmlns='\(payload.namespace)'>")
                    exact[payload] = handler
                } else {
                    precondition(byNamespace[payload.namespace] == nil, "two handlers for \(payload.namespace)")
                    byNamespace[payload.namespace] = handler
                }
            }
            advertise(handler.features)
        }

        /// Registers `handler` for the presence types it handles.
        mutating func register(presence handler: any XMPPPresenceHandler) {
            for type in handler.presenceTypes {
                precondition(byPresenceType[type] == nil, "two handlers for presence of type \(type)")
                byPresenceType[type] = handler
            }
        }

        /// Registers `handler` as the service at `domain` (a subdomain of the server's);
        /// `withLocalParts`: also for the JIDs under it (a conference service's rooms).
        mutating func register(_ handler: any XMPPHandler, service domain: String, withLocalParts: Bool = false) {
            precondition(byService[domain] == nil, "two services at \(domain)")
            byService[domain] = (handler, withLocalParts)
        }

        private var signals = ChatSignalHandler()

        /// Sets the handler of chat states and receipts, and advertises its features.
        mutating func register(signals handler: ChatSignalHandler) {
            signals = handler
            advertise(handler.features)
        }

        /// Adds features to the server's disco#info.
        mutating func advertise(_ features: [String]) {
            for feature in features where !self.features.contains(feature) { self.features.append(feature) }
        }

        func build() -> XMPPHandlerTable {
            XMPPHandlerTable(exact: exact, byNamespace: byNamespace, byPresenceType: byPresenceType, byService: byService,
                             signals: signals, serverFeatures: features)
        }
    }

    /// Every feature of the gateway, for the server at `domain`.
    static func standard(domain: String) -> XMPPHandlerTable {
        var builder = Builder()
        builder.register(DiscoHandler())
        builder.register(PingHandler())
        builder.register(SessionHandler())
        builder.register(RosterHandler())
        builder.register(PrivateStorageHandler())
        builder.register(presence: SubscriptionHandler())
        builder.register(VCardHandler())
        builder.register(LastActivityHandler())
        builder.register(BlockingHandler())
        builder.register(signals: ChatSignalHandler())
        builder.register(CarbonsHandler())
        builder.register(ArchiveHandler())
        builder.register(RegisterHandler())
        builder.register(UploadHandler(), service: "upload." + domain)
        builder.register(ConferenceHandler(), service: "conference." + domain, withLocalParts: true)
        return builder.build()
    }
}
