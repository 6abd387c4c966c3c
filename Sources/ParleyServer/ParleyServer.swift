import ParleyCluster
import Foundation
import ParleyCore
public import ParleyNet
import ParleyPostgres
import ParleyProtocol
import ParleySQLite
import ParleySync
import ParleyXMPP
import Synchronization

/// A running Parley server: event loops, the blocking pool, the HTTP/WebSocket server and
/// everything behind it, started from a `ServerConfiguration` and stopped gracefully.
public final class ParleyServer: Sendable {
    /// The configuration it was started with.
    public let configuration: ServerConfiguration
    /// The event loops.
    public let group: EventLoopGroup
    /// The HTTP and WebSocket server.
    public let http: HTTPServer
    /// The XMPP client listener, unless `--xmpp-port 0` turned it off.
    let xmpp: XMPPServer?
    /// The XMPP direct TLS listener (XEP-0368), when `--xmpp-tls-port` is set.
    let xmppDirectTLS: XMPPServer?
    /// TLS of the main port and of XMPP (one context when both use `--tls-cert`).
    let certificates: ServerCertificates
    let pool: BlockingPool
    /// The data: SQLite's embedded file or a shared PostgreSQL database (`--store`).
    let store: any Store
    let services: ServerServices
    /// The cluster membership (`--nats`), or nil for a single server.
    let cluster: ClusterDelivery?
    let logger: Logger
    let startedAt: UInt64
    /// Removes uploads nobody used, in the background.
    private let mediaSweeper: MediaSweeper
    /// The local admin socket (`--admin-socket`), unless it is off.
    let adminSocket: LocalSocketServer?
    /// Uploads that arrive in pieces (`/v1/file-uploads`).
    let resumableUploads: ResumableUploads
    /// Most connections held at once.
    public let connectionLimit: Int
    /// Every part above that runs, in the order it started: the store, the blocking pool, the
    /// loops, the services (and cluster), the listeners, the media sweeper. Stopped last first.
    private let lifecycle: ServiceGroup
    /// Connections the listeners had to cut at shutdown, summed across them.
    private let cutConnections = CutCount()

    /// Starts serving. Throws if the address cannot be bound or the data directory is unusable.
    public init(configuration: ServerConfiguration, logger: Logger) throws {
        self.configuration = configuration
        self.logger = logger
        startedAt = MonotonicClock.now()
        // Before the loops and pools start, so that their threads share the arenas.
        if !HeapArenas.limit(to: configuration.heapArenas) {
            logger.warning("heap arenas not limited", ["heapArenas": .int(configuration.heapArenas)])
        }
        // A failure a client hears of only as `internal_error` is logged with its cause.
        InternalFailures.setReporter { cause in logger.error("internal error", ["cause": .string(cause)]) }
        // Before anything is opened: a bad certificate is a configuration error.
        certificates = try ServerCertificates(configuration: configuration)
        try Self.prepareDataDirectory(configuration.dataDirectory, logger: logger)

        // Every connection costs a descriptor; keep a reserve for files, the database and logs.
        let descriptorLimit = DescriptorLimit.raiseToHardLimit()
        let reserve = 64
        let ceiling = max(16, descriptorLimit - reserve)
        connectionLimit = configuration.maxConnections > 0 ? min(configuration.maxConnections, ceiling) : ceiling
        let exposure = try PublicExposure(configuration, tls: certificates.http != nil)

        // From here on every part is started through the lifecycle: a failure stops what was
        // started before it, last first, and `shutdown()` stops them all the same way.
        let lifecycle = ServiceGroup(logger: logger)
        self.lifecycle = lifecycle
        let opened = try lifecycle.start("store", { try Self.openStore(configuration, logger: logger) },
                                         stop: { opened, _ in opened.close() })
        store = opened.store
        let pool = try lifecycle.start("blocking pool", { BlockingPool(threadCount: configuration.blockingThreads) },
                                       stop: { pool, _ in pool.shutdown() })
        self.pool = pool
        let group = try lifecycle.start("event loops", { try EventLoopGroup(loopCount: configuration.loops) },
                                        stop: { group, _ in group.shutdown() })
        self.group = group
        let store = self.store
        (services, cluster) = try lifecycle.start("services", {
            try Self.makeServices(configuration: configuration, store: store, pool: pool, group: group, logger: logger)
        }, stop: { started, _ in
            // After the connections closed: the other nodes forget this one's users now.
            started.1?.stop()
        })
        // The web client's modules import one another by unversioned names: each is asked
        // again on every load (a 304 when unchanged), so after a deploy no browser runs an
        // old module beside a new one.
        let staticFiles = try? StaticFiles(root: configuration.webRoot, assetCacheControl: "no-cache")
        if staticFiles == nil {
            logger.warning("web client directory not found; only the API is served", ["web": .string(configuration.webRoot)])
        }

        var routes = RouterBuilder<RouteAction>()
        let limit = connectionLimit
        let pushMetrics = services.push.metrics
        let started = startedAt
        routes.add(.get, "/healthz", .immediate { _ in
            JSONCoding.response(.ok, Health(status: "ok", version: ParleyVersion.current,
                                            uptimeSeconds: Int((MonotonicClock.now() - started) / 1_000_000_000)))
        })
        let limits = configuration.publishedLimits
        routes.add(.get, "/v1/limits", .immediate { _ in JSONCoding.response(.ok, limits) })
        routes.add(.get, "/metrics", .immediate { _ in
            let text = MetricsRenderer.render(group.metrics, connectionLimit: limit,
                                              uptimeSeconds: Int((MonotonicClock.now() - started) / 1_000_000_000))
                + pushMetrics.render()
            return HTTPResponse(status: .ok, contentType: "text/plain; version=0.0.4; charset=utf-8", text: text)
        })
        AccountRoutes.add(to: &routes, services: services)
        let resumable = try ResumableUploads(directory: configuration.dataDirectory + "/resumable", media: services.media,
                                             blocking: PoolExecutor(pool: pool), expirySeconds: configuration.uploadExpirySeconds,
                                             maxPerUser: configuration.maxOpenUploadsPerUser,
                                             clock: { Int64(Date().timeIntervalSince1970 * 1000) })
        resumableUploads = resumable
        ResumableUploadRoutes.add(to: &routes, accounts: services.accounts, uploads: resumable)
        PushRoutes.add(to: &routes, services: services)
        AdminRoutes.add(to: &routes, services: services) { group.metrics.openWebSockets }
        let services = self.services
        let responder = ParleyResponder(router: routes.build(), staticFiles: staticFiles, pool: pool) { head, context in
            head.path == "/v1/ws" ? ClientSession(loop: context.loop, services: services) : nil
        }

        var httpConfiguration = HTTPServer.Configuration(
            limits: HTTPLimits(maxHeaderBytes: configuration.maxHeaderBytes, maxHeaderCount: configuration.maxHeaderCount,
                               maxURILength: configuration.maxURILength, maxBodyBytes: configuration.maxBodyBytes),
            tcp: TCPServerOptions(maxConnections: connectionLimit, maxConnectionsPerAddress: configuration.maxConnectionsPerAddress,
                                  connection: TCPConnectionOptions(
                idleTimeout: .seconds(configuration.idleTimeoutSeconds),
                maxQueuedBytes: configuration.maxQueuedBytesPerConnection,
                writeStallTimeout: .seconds(configuration.writeStallTimeoutSeconds))),
            webSocket: WebSocketOptions(limits: WebSocketLimits(maxFrameSize: configuration.maxWebSocketFrameBytes,
                                                                maxMessageSize: configuration.maxWebSocketMessageBytes)),
            originPolicy: exposure.originPolicy,
            strictTransportSecurity: certificates.http != nil && configuration.hstsMaxAgeSeconds > 0
                ? "max-age=\(configuration.hstsMaxAgeSeconds)" : nil)
        httpConfiguration.allowedHosts = exposure.allowedHosts
        httpConfiguration.originScheme = exposure.originScheme
        httpConfiguration.clientAddresses = exposure.clientAddresses
        httpConfiguration.headerTimeout = .seconds(configuration.headerTimeoutSeconds)
        httpConfiguration.minimumBodyBytesPerSecond = configuration.minimumBodyBytesPerSecond
        httpConfiguration.bodyStreaming = IncomingUploads.streaming(
            directory: try IncomingUploads.prepare(dataDirectory: configuration.dataDirectory), maxFileBytes: configuration.maxFileBytes,
            accounts: services.accounts, media: services.media, resumable: resumable)
        var httpTCP = httpConfiguration.tcp
        httpTCP.tls = certificates.http
        var mainConfiguration = httpConfiguration
        mainConfiguration.tcp = httpTCP
        let certificates = self.certificates
        let cut = cutConnections
        // The listeners wind down together, so the whole stop stays within the timeout.
        let listening = try lifecycle.start("listeners", {
            let listeners = ServiceGroup(stopOrder: .together, logger: logger)
            let http = try listeners.start("http", {
                try HTTPServer(group: group, address: SocketAddress(host: configuration.host, port: configuration.port),
                               configuration: mainConfiguration, responder: responder)
            }, stop: { http, timeout in
                let count = http.shutdown(timeout: timeout)
                cut.value.withLock { $0 += count }
            })
            let scheme = certificates.http == nil ? "http" : "https"
            let base = configuration.publicURL.isEmpty ? "\(scheme)://\(http.localAddress)" : configuration.publicURL
            let (xmpp, direct) = try Self.startXMPP(configuration: configuration, group: group, tcp: httpConfiguration.tcp,
                                                    services: services, tls: certificates.xmpp, mediaBaseURL: base,
                                                    listeners: listeners, cut: cut, logger: logger)
            return (listeners, http, xmpp, direct)
        }, stop: { started, timeout in started.0.shutdown(timeout: timeout) })
        (http, xmpp, xmppDirectTLS) = (listening.1, listening.2, listening.3)
        let socketServices = services
        adminSocket = try lifecycle.start("admin socket", {
            try AdminSocket.start(configuration: configuration, services: socketServices, store: store, pool: pool,
                                  connections: { group.metrics.openWebSockets }, logger: logger)
        }, stop: { socket, _ in socket?.stop() })
        let media = services.media
        mediaSweeper = try lifecycle.start("media sweeper", { MediaSweeper(media: media, uploads: resumable, logger: logger) },
                                           stop: { sweeper, _ in sweeper.stop() })
        logger.info("listening", ["host": .string(configuration.host), "port": .int(http.localAddress.port),
                                  "loops": .int(configuration.loops), "heapArenas": .int(HeapArenas.limit), "connectionLimit": .int(connectionLimit),
                                  "descriptorLimit": .int(descriptorLimit), "tls": .bool(certificates.http != nil), "data": .string(configuration.dataDirectory),
                                  // Only the kind: a connection string may hold a password.
                                  "store": .string(configuration.store.isEmpty ? "sqlite" : "postgres"),
                                  "node": .string(cluster?.nodeID ?? "single"),
                                  "version": .string(ParleyVersion.current)])
    }

    /// The local admin socket's path, or nil when `--admin-socket off`.
    public var adminSocketPath: String? { adminSocket?.path }

    /// The port actually bound.
    public var port: Int { http.localAddress.port }

    /// The XMPP listener's port, if it is on.
    public var xmppPort: Int? { xmpp?.port }

    /// The XMPP direct TLS port, if it is on.
    public var xmppTLSPort: Int? { xmppDirectTLS?.port }

    /// Loads the certificates and keys again from their files (SIGHUP): new handshakes use
    /// them, open connections keep theirs. A bad pair is logged and the old one kept.
    public func reloadCertificates() {
        certificates.reload(logger: logger)
    }

    /// Starts the XMPP listeners `--xmpp-port` and `--xmpp-tls-port` ask for, each a part of
    /// `listeners`; the connections each cuts at shutdown are added to `cut`.
    private static func startXMPP(configuration: ServerConfiguration, group: EventLoopGroup, tcp: TCPServerOptions,
                                  services: ServerServices, tls: TLSContext?, mediaBaseURL: String,
                                  listeners: ServiceGroup, cut: CutCount, logger: Logger) throws -> (XMPPServer?, XMPPServer?) {
        guard configuration.xmppPort != 0 || configuration.xmppTLSPort != 0 else { return (nil, nil) }
        if configuration.xmppTLSPort != 0 && tls == nil {
            throw ConfigurationError.invalidValue(flag: "xmpp-tls-port", value: String(configuration.xmppTLSPort),
                                                  expected: "0 unless --tls-cert/--tls-key (or --xmpp-tls-cert/--xmpp-tls-key) are given")
        }
        var xmppConfiguration = XMPPConfiguration(
            domain: configuration.xmppDomain,
            limits: XMLStreamLimits(maxStanzaBytes: configuration.xmppMaxStanzaBytes, maxDepth: configuration.xmppMaxDepth,
                                    maxAttributes: configuration.xmppMaxAttributes),
            allowPlaintext: configuration.xmppAllowPlaintext == "yes",
            authTimeout: .seconds(configuration.xmppAuthTimeoutSeconds),
            idleTimeout: .seconds(configuration.xmppIdleTimeoutSeconds), tls: tls,
            resumeTimeout: .seconds(configuration.xmppResumeTimeoutSeconds),
            parserReleaseDelay: .milliseconds(configuration.xmppParserReleaseMilliseconds),
            parserKeepDelay: .milliseconds(configuration.xmppParserKeepMilliseconds), publicURL: mediaBaseURL)
        xmppConfiguration.decoySecret = try ServerSecret.load(from: configuration.dataDirectory)
        xmppConfiguration.mediaURLs = MediaURLSigner(lifetimeSeconds: configuration.xmppMediaURLSeconds,
                                                     mac: try ServerSecret.mediaLinkMAC(from: configuration.dataDirectory))
        xmppConfiguration.maxPrivateItems = configuration.xmppMaxPrivateItems
        xmppConfiguration.receiptsKept = configuration.xmppReceiptsKept
        xmppConfiguration.maxPushRegistrations = configuration.xmppMaxPushRegistrations
        let xmppServices = XMPPServices(accounts: services.accounts, social: services.social, conversations: services.conversations,
                                        groups: services.groups, rooms: services.rooms, presence: services.presence, uploads: services.uploads,
                                        privateStorage: services.privateStorage, pep: services.pep,
                                        registry: services.registry, delivery: services.delivery, configuration: xmppConfiguration, logger: logger,
                                        deletion: services.deletion, nativeResources: services.nativeResources, media: services.media,
                                        clientStateChanged: { [activity = services.push.activity] token, active in
                                            activity.set(token, active: active)
                                        })
        services.push.also(XMPPPushNotifier(services: xmppServices, isAway: { [push = services.push] user in push.isAway(user) }))
        let stop: @Sendable (XMPPServer, Duration) -> Void = { server, timeout in
            let count = server.shutdown(timeout: timeout)
            cut.value.withLock { $0 += count }
        }
        var server: XMPPServer?
        if configuration.xmppPort != 0 {
            let started = try listeners.start("xmpp", {
                try XMPPServer(group: group, address: SocketAddress(host: configuration.host, port: configuration.xmppPort),
                               options: tcp, services: xmppServices)
            }, stop: stop)
            logger.info("xmpp listening", ["host": .string(configuration.host), "port": .int(started.port),
                                           "domain": .string(xmppConfiguration.domain), "starttls": .bool(tls != nil)])
            server = started
        }
        var direct: XMPPServer?
        if configuration.xmppTLSPort != 0, let tls {
            var options = tcp
            options.tls = tls
            let started = try listeners.start("xmpp direct tls", {
                try XMPPServer(group: group, address: SocketAddress(host: configuration.host, port: configuration.xmppTLSPort),
                               options: options, services: xmppServices)
            }, stop: stop)
            logger.info("xmpp direct tls listening", ["host": .string(configuration.host), "port": .int(started.port)])
            direct = started
        }
        return (server, direct)
    }

    /// Stops accepting, closes WebSockets with 1001, lets responses finish within the
    /// configured timeout, then stops the rest in the reverse order of its start: the media
    /// sweeper, the listeners (together), the cluster, the loops, the pool and the store.
    public func shutdown() {
        logger.info("shutting down", ["open": .int(group.metrics.openConnections)])
        lifecycle.shutdown(timeout: .seconds(configuration.shutdownTimeoutSeconds))
        logger.info("stopped", ["cutConnections": .int(cutConnections.value.withLock { $0 })])
    }

    /// Creates the data directory readable by this user only, and makes every file the
    /// process creates from now on (the database, its WAL, media, keys) the same: the data is
    /// other people's messages, which no other local account should read. An existing
    /// directory that others may read is left as the operator set it, with a warning.
    private static func prepareDataDirectory(_ path: String, logger: Logger) throws {
        umask(0o077)
        let files = FileManager.default
        if files.fileExists(atPath: path) {
            let mode = (try? files.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? 0
            if mode & 0o077 != 0 {
                logger.warning("the data directory may be read by other local users; chmod 700 it",
                               ["path": .string(path), "mode": .string(String(mode, radix: 8))])
            }
        } else {
            try files.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        // Made at first start, so every node of a cluster can be given a copy before serving.
        _ = try ServerSecret.load(from: path)
    }
}

/// Connections the listeners had to cut, added up from the threads that stopped them.
private final class CutCount: Sendable {
    let value = PThreadMutex(0)
}

/// The `/healthz` body.
struct Health: Codable, Sendable {
    var status: String
    var version: String
    var uptimeSeconds: Int
}
