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
        let staticFiles = try? StaticFiles(root: configuration.webRoot)
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
            try AdminSocket.start(configuration: configuration, services: socketServices, pool: pool,
                                  connections: { group.metrics.openWebSockets }, logger: logger)
        }, stop: { socket, _ in socket?.stop() })
        let media = services.media
        mediaSweeper = try lifecycle.start("media sweeper", { MediaSweeper(media: media, uploads: resumable, logger: logger) },
                                           stop: { sweeper, _ in sweeper.stop() })
        logger.info("listening", ["host": .string(configuration.host), "port": .int(http.localAddress.port),
                                  "loops": .int(configuration.loops), "connectionLimit": .int(connectionLimit),
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
            parserReleaseDelay: .milliseconds(configuration.xmppParserReleaseMilliseconds), publicURL: mediaBaseURL)
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

    /// Opens the store `--store` names and migrates its schema: the SQLite file under the data
    /// directory by default, or the PostgreSQL database of the URI.
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

    /// What the schema's migrations changed in stored data (such as text cut to today's
    /// limits) is logged once, when the migration runs.
    static func openStore(_ configuration: ServerConfiguration, logger: Logger) throws -> OpenedStore {
        let opened: OpenedStore
        let notes: [String]
        if configuration.store.isEmpty {
            let messageLog = configuration.messageLog == "segment"
                ? MessageLogSettings(directory: configuration.dataDirectory + "/message-log",
                                     segmentBytes: configuration.messageLogSegmentBytes, maxBytes: configuration.messageLogMaxBytes)
                : nil
            let store = try SQLiteStore(path: configuration.dataDirectory + "/parley.sqlite", readers: configuration.databaseReaders,
                                        batchLimit: configuration.databaseBatchLimit, messageLog: messageLog)
            opened = OpenedStore(store: store, close: { store.close() })
            notes = store.migrationNotes
            if messageLog != nil {
                logger.info("message log open", ["replayed": .int(store.replayedFromMessageLog)])
            }
        } else {
            guard configuration.messageLog == "off" else {
                throw ConfigurationError.invalidValue(flag: "message-log", value: configuration.messageLog,
                                                      expected: "off with --store postgres (the log is for the SQLite store)")
            }
            let store = try PostgresStore(connectionString: configuration.store, readers: configuration.databaseReaders,
                                          writers: configuration.databaseWriters, batchLimit: configuration.databaseBatchLimit)
            opened = OpenedStore(store: store, close: { store.close() })
            notes = store.migrationNotes
        }
        for note in notes { logger.warning("stored data changed by a schema migration", ["change": .string(note)]) }
        return opened
    }

    private static func makeServices(configuration: ServerConfiguration, store: any Store, pool: BlockingPool, group: EventLoopGroup,
                                     logger: Logger) throws -> (ServerServices, ClusterDelivery?) {
        let blocking = PoolExecutor(pool: pool)
        let secrets = SodiumSecrets()
        let hasher = configuration.passwordCost == "minimum"
            ? try PasswordHasher(opsLimit: PasswordHasher.minimumOpsLimit, memoryLimit: PasswordHasher.minimumMemoryLimit)
            : PasswordHasher()
        let sms: SMSSending
        if configuration.smsSender == "webhook" {
            guard let url = URL(string: configuration.smsWebhookURL), ["http", "https"].contains(url.scheme ?? "") else {
                throw ConfigurationError.invalidValue(flag: "sms-webhook-url", value: configuration.smsWebhookURL,
                                                      expected: "an http(s) URL when --sms-sender is webhook")
            }
            sms = WebhookSender(url: url, timeout: 10)
        } else {
            sms = FileOutboxSender(path: configuration.dataDirectory + "/sms-outbox.jsonl", blocking: blocking)
        }
        var rules = AccountRules()
        rules.smsCodeLength = configuration.smsCodeLength
        rules.loginFailuresPerAccount = configuration.loginFailuresPerAccount
        rules.loginFailuresPerAddress = configuration.loginFailuresPerAddress
        rules.registrationsPerAddressPerHour = configuration.registrationsPerAddress
        rules.smsMaxPerPhonePerDay = configuration.smsPerPhonePerDay
        rules.smsMaxPerAddressPerHour = configuration.smsPerAddressPerHour
        rules.deviceNameLength = configuration.maxDeviceNameLength
        rules.smsResendIntervalSeconds = configuration.smsResendIntervalSeconds
        rules.usernameQuarantineDays = configuration.usernameQuarantineDays
        rules.eraseMessagesOnDelete = configuration.eraseMessagesOnDelete == "yes"
        rules.text = configuration.textLimits
        let clock: WallClock = { Int64(Date().timeIntervalSince1970 * 1000) }
        // SCRAM credentials are kept whether or not XMPP is on, so turning it on later works.
        let accounts = AccountService(store: store, passwords: SodiumPasswords(hasher: hasher), secrets: secrets, sms: sms,
                                      blocking: blocking, rules: rules, clock: clock, scram: SCRAMCredentialDeriver())
        let mediaDirectory = try MediaDirectory(path: configuration.dataDirectory + "/media")
        let media = MediaService(store: store, files: mediaDirectory,
                                 secrets: secrets, blocking: blocking, rules: configuration.mediaRules, clock: clock)
        let thumbnails = Thumbnails(directory: mediaDirectory, maker: ThumbnailMaker(maxPixels: configuration.maxImagePixels),
                                    blocking: blocking, maxSourceBytes: max(configuration.maxMediaBytes, configuration.maxFileBytes))
        let limits = ServerServices.Limits(webSocketAuthTimeout: .seconds(configuration.webSocketAuthTimeoutSeconds),
                                           maxQueuedRequestsPerConnection: configuration.maxQueuedRequestsPerConnection,
                                           requestsPerSecond: Double(configuration.webSocketRequestsPerSecond),
                                           requestBurst: Double(configuration.webSocketRequestBurst))
        let hub = ConnectionHub(fanOutWindow: .milliseconds(configuration.fanOutWindowMilliseconds))
        var messagingRules = MessagingRules()
        messagingRules.text = configuration.textLimits
        messagingRules.maxHistoryPage = configuration.maxHistoryPage
        messagingRules.maxArchivePage = configuration.maxArchivePage
        // One answer must never reach the queue bound that cuts a connection off; half of it
        // leaves room for the events queued beside it.
        messagingRules.maxAnswerBytes = configuration.maxQueuedBytesPerConnection / 2
        messagingRules.defaultHistoryPage = min(messagingRules.defaultHistoryPage, configuration.maxHistoryPage)
        messagingRules.syncMessagesPerConversation = configuration.syncMessagesPerConversation
        configuration.applyMessageActionRules(to: &messagingRules)
        configuration.applyGovernanceRules(to: &messagingRules)
        configuration.applyReceiptRules(to: &messagingRules)
        configuration.applySearchRules(to: &messagingRules)
        // Member lists may be kept in memory only while this server is the one writer: on a
        // shared PostgreSQL another server can change membership behind its back.
        messagingRules.membershipCacheConversations = configuration.store.isEmpty ? configuration.membershipCacheConversations : 0
        let cluster = try joinCluster(configuration, hub: hub, logger: logger)
        let delivery: any Delivery = cluster ?? hub
        let registry: any ConnectionRegistry = cluster ?? hub
        let push = try makePush(configuration: configuration, store: store, pool: pool, group: group, hub: hub, delivery: delivery,
                                logger: logger, clock: clock)
        let messaging = MessagingContext(store: store, blocking: blocking, delivery: delivery, secrets: secrets,
                                         rules: messagingRules, clock: clock, notifications: push)
        var uploadRules = UploadSlots.Rules()
        uploadRules.lifetime = Int64(configuration.uploadSlotLifetimeSeconds) * 1000
        uploadRules.perUser = configuration.uploadSlotsPerUser
        let uploads = UploadSlots(media: media, secrets: secrets, rules: uploadRules, clock: clock)
        var exportRules = AccountExports.Rules()
        exportRules.lifetime = Int64(configuration.exportHours) * 3_600_000
        exportRules.maxBytes = configuration.maxExportBytes
        exportRules.maxMessages = configuration.maxExportMessages
        let exports = try AccountExports(directory: configuration.dataDirectory + "/exports", store: store, blocking: blocking,
                                         media: media, rules: exportRules, clock: clock, logger: logger)
        let services = ServerServices(accounts: accounts, media: media, pool: pool, uploads: uploads, messaging: messaging, hub: hub,
                                      delivery: delivery, registry: registry, limits: limits, logger: logger, push: push,
                                      mediaURLs: MediaURLSigner(lifetimeSeconds: configuration.mediaURLSeconds,
                                                                mac: try ServerSecret.mediaLinkMAC(from: configuration.dataDirectory)),
                                      thumbnails: thumbnails,
                                      pushRegistration: PushRegistration(store: store, limits: PushRegistration.Limits(
                                                                             maxURLBytes: configuration.pushMaxURLBytes,
                                                                             maxKeyBytes: configuration.pushMaxKeyBytes,
                                                                             targetsPerUser: configuration.pushTargetsPerUser),
                                                                         allowLoopback: configuration.pushAllowLoopback == "yes",
                                                                         absent: push.absent,
                                                                         defaultGatewayURL: configuration.pushGatewayURL,
                                                                         clock: clock),
                                      exports: exports, moderation: configuration.moderationRules,
                                      nativeResources: NativeResources(originsKept: configuration.xmppReceiptsKept),
                                      pepLimits: configuration.pepLimits)
        if let cluster {
            let presence = services.presence
            let rooms = services.rooms
            hub.observe { user, _ in cluster.localChange(user) }
            cluster.start(ClusterDelivery.Handlers(
                changed: { user in presence.heard(user, online: cluster.isOnline(user)) },
                expired: { users in Task { for user in users { await presence.expired(user) } } },
                lost: { node, acts in Task { await rooms.serverLost(node, acts: acts) } },
                acting: { Task { await rooms.sweep() } },
                rejoined: { users in Task { for user in users { await presence.reannounce(user) } } }),
                rooms: messaging.rooms)
        }
        return (services, cluster)
    }

    /// Joins the cluster of `--nats`, or returns nil for a single server. A cluster needs the
    /// shared PostgreSQL store: SQLite's file belongs to one server.
    private static func joinCluster(_ configuration: ServerConfiguration, hub: ConnectionHub,
                                    logger: Logger) throws -> ClusterDelivery? {
        guard !configuration.nats.isEmpty else { return nil }
        guard !configuration.store.isEmpty else {
            throw ConfigurationError.invalidValue(flag: "nats", value: configuration.nats,
                                                  expected: "empty unless --store names a PostgreSQL database the nodes share")
        }
        let nodeID = configuration.nodeID.isEmpty ? String(UInt64.random(in: 0...UInt64.max), radix: 36) : configuration.nodeID
        guard nodeID.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }), nodeID.count <= 64 else {
            throw ConfigurationError.invalidValue(flag: "node-id", value: nodeID, expected: "up to 64 letters, digits, - and _")
        }
        let cluster = try ClusterDelivery(
            url: configuration.nats, nodeID: nodeID, local: hub,
            timing: ClusterDelivery.Timing(heartbeat: .seconds(configuration.clusterHeartbeatSeconds),
                                           missedHeartbeats: configuration.clusterMissedHeartbeats,
                                           fullBeat: .seconds(configuration.clusterFullBeatSeconds)),
            log: { message, fields in logger.warning(message, fields.mapValues { .string($0) }) })
        logger.info("cluster joined", ["node": .string(nodeID), "nats": .string(configuration.nats)])
        return cluster
    }
}

/// An open store and how to close it: its threads stop once queued work is done.
struct OpenedStore: Sendable {
    let store: any Store
    let close: @Sendable () -> Void
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
