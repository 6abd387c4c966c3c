import ParleyCore
import ParleyNet

extension ParleyServer {
    /// The push notification dispatcher of `configuration`, its VAPID key from the data
    /// directory (made there at first start).
    static func makePush(configuration: ServerConfiguration, store: any Store, pool: BlockingPool, group: EventLoopGroup,
                         hub: ConnectionHub, delivery: any Delivery, logger: Logger,
                         clock: @escaping @Sendable () -> Int64) throws -> PushDispatcher {
        let vapid = try VAPIDKey.load(from: configuration.dataDirectory)
        // Without the system's CAs only loopback push services (plain HTTP) can be reached.
        let tls = try? TLSContext()
        if tls == nil { logger.warning("push: no TLS client context; only loopback push services can be reached", [:]) }
        let sender = PushSender(group: group, pool: pool, tls: tls, timeout: .seconds(configuration.pushTimeoutSeconds))
        let settings = PushDispatcher.Settings(coalesceWindow: .milliseconds(configuration.pushCoalesceMilliseconds),
                                               retries: configuration.pushRetries, maxQueued: configuration.pushMaxQueued,
                                               contact: configuration.pushContact, defaultGatewayURL: configuration.pushGatewayURL)
        return PushDispatcher(store: store, hub: hub, delivery: delivery, activity: ClientActivity(),
                              coalescer: PushCoalescer(perUserPerMinute: configuration.pushPerUserPerMinute,
                                                       maxPending: configuration.pushMaxQueued),
                              sender: sender, vapid: vapid, metrics: PushMetrics(), settings: settings, logger: logger, clock: clock)
    }
}
