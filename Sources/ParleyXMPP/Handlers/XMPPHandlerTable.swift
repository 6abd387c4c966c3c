/// The gateway's handlers by the `iq` payload they answer, and the server's disco features:
/// built once by a `Builder` when the server starts and never changed, so every session
/// reads it without a lock.
struct XMPPHandlerTable: Sendable {
    private let exact: [XMPPPayload: any XMPPHandler]
    private let byNamespace: [String: any XMPPHandler]
    /// The server's `<feature var>`s, in the order handlers were registered.
    let serverFeatures: [String]

    /// The handler for a payload: one registered for its namespace and name, else for its
    /// whole namespace; nil if none.
    func handler(for query: XMLElement) -> (any XMPPHandler)? {
        exact[XMPPPayload(query.namespace, query.name)] ?? byNamespace[query.namespace]
    }

    /// Collects handlers and features; `build` freezes them.
    struct Builder {
        private var exact: [XMPPPayload: any XMPPHandler] = [:]
        private var byNamespace: [String: any XMPPHandler] = [:]
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

        /// Features handled outside `iq` (receipts and chat states ride on messages).
        mutating func advertise(_ features: [String]) {
            for feature in features where !self.features.contains(feature) { self.features.append(feature) }
        }

        func build() -> XMPPHandlerTable {
            XMPPHandlerTable(exact: exact, byNamespace: byNamespace, serverFeatures: features)
        }
    }

    /// Every feature of the gateway.
    static func standard() -> XMPPHandlerTable {
        var builder = Builder()
        builder.register(DiscoHandler())
        builder.register(PingHandler())
        builder.register(SessionHandler())
        builder.register(RosterHandler())
        builder.register(VCardHandler())
        builder.register(BlockingHandler())
        builder.advertise([Namespace.receipts, Namespace.chatStates])
        builder.register(CarbonsHandler())
        builder.register(ArchiveHandler())
        return builder.build()
    }
}
