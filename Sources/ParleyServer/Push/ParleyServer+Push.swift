import ParleyCore
import ParleyNet

extension ParleyServer {
    /// The push notification dispatcher of `configuration`, its VAPID key from the data
    /// directory (made there at first start).
    static func makePush(configuration: ServerConfiguration, store: any Store, pool: BlockingPool, group: EventLoopGroup,
                         hub: ConnectionHub, delivery: any Delivery, logger: Logger,
                         clock: @escaping @Sendable () -> Int64) throws -> PushDispatcher {
        let vapid = try VAPIDKey.load(from: configuration.dataDirectory)
        // Without the system's CAs no push service can be reached (but loopback ones in tests).
        let tls = try? TLSContext()
        if tls == nil { logger.warning("push: cannot load the system's CA certificates; pushes cannot be sent over https", [:]) }
        let sender = PushSender(group: group, pool: pool, tls: tls, timeout: .seconds(configuration.pushTimeoutSeconds),
                                allowLoopback: configuration.pushAllowLoopback == "yes")
        if configuration.pushAllowLoopback == "yes" {
            logger.warning("push: loopback push services allowed (--push-allow-loopback yes): for tests only", [:])
        }
        let settings = PushDispatcher.Settings(coalesceWindow: .milliseconds(configuration.pushCoalesceMilliseconds),
                                               retries: configuration.pushRetries, maxQueued: configuration.pushMaxQueued,
                                               contact: configuration.pushContact, defaultGatewayURL: configuration.pushGatewayURL)
        return PushDispatcher(store: store, hub: hub, delivery: delivery, activity: ClientActivity(),
                              coalescer: PushCoalescer(perUserPerMinute: configuration.pushPerUserPerMinute,
                                                       maxPending: configuration.pushMaxQueued),
                              sender: sender, vapid: vapid, metrics: PushMetrics(), settings: settings, logger: logger, clock: clock)
    }
}
