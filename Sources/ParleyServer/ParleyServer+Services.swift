import Foundation
import ParleyCluster
import ParleyCore
import ParleyNet
import ParleyPostgres
import ParleyProtocol
import ParleySQLite
import ParleySync
import ParleyXMPP

// Assembling a server: the store it opens, the services behind its listeners, and the
// cluster it joins.
extension ParleyServer {
    /// Opens the store `--store` names and migrates its schema: the SQLite file under the data
    /// directory by default, or the PostgreSQL database of the URI.
    /// What the schema's migrations changed in stored data (such as text cut to today's
    /// limits) is logged once, when the migration runs.
    static func openStore(_ configuration: ServerConfiguration, logger: Logger) throws -> OpenedStore {
        let opened: OpenedStore
        let notes: [String]
        if configuration.store.isEmpty {
            guard configuration.messageLogApply == "now" || configuration.messageLog == "segment" else {
                throw ConfigurationError.invalidValue(flag: "message-log-apply", value: configuration.messageLogApply,
                                                      expected: "now unless --message-log segment (rows are applied later from the log)")
            }
            let logDirectory = configuration.dataDirectory + "/message-log"
            if configuration.messageLog != "segment" && FileManager.default.fileExists(atPath: logDirectory) {
                // A log left by a run with `--message-log segment` may hold acknowledged rows
                // the database lacks (`later` mode, or a power cut): opened without it, those
                // messages would be missing and their seqs given to new ones. A store opened
                // with the log replays them into the database file (committed at `FULL`), after
                // which the log holds nothing the database lacks and is removed: left, it would
                // fall behind the database's seqs, and a later start with it would refuse them.
                var replaying = configuration
                replaying.messageLog = "segment"
                replaying.messageLogApply = "now"
                try openStore(replaying, logger: logger).close()
                do {
                    try FileManager.default.removeItem(atPath: logDirectory)
                } catch {
                    throw StoreError.failure("message log: remove \(logDirectory) after its replay: \(error)")
                }
                logger.info("message log replayed and removed", ["reason": .string("--message-log is off")])
            }
            let messageLog = configuration.messageLog == "segment"
                ? MessageLogSettings(directory: logDirectory,
                                     segmentBytes: configuration.messageLogSegmentBytes, maxBytes: configuration.messageLogMaxBytes,
                                     apply: configuration.messageLogApply == "later" ? .later : .now,
                                     applyBatchRows: configuration.messageLogApplyBatch,
                                     applyDelay: .milliseconds(configuration.messageLogApplyDelayMilliseconds))
                : nil
            let store = try SQLiteStore(path: configuration.dataDirectory + "/parley.sqlite", readers: configuration.databaseReaders,
                                        batchLimit: configuration.databaseBatchLimit, messageLog: messageLog,
                                        searchIndex: configuration.searchIndexSettings,
                                        searchIndexReport: { logSearchIndex($0, logger: logger) },
                                        messageLogApplyReport: { logMessageLogApply($0, logger: logger) })
            opened = OpenedStore(store: store, close: { store.close() })
            notes = store.migrationNotes
            if messageLog != nil {
                logger.info("message log open", ["replayed": .int(store.replayedFromMessageLog), "apply": .string(configuration.messageLogApply)])
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

    /// The SQLite store's search indexing, failing or recovering, as a log line.
    static func logSearchIndex(_ report: SearchIndexReport, logger: Logger) {
        switch report {
        case let .stepFailed(reason, failedSteps, waiting):
            logUpkeepFailure("search index step failed; messages stay searchable, retried after the interval", reason: reason,
                             failedSteps: failedSteps, waiting: waiting, logger: logger)
        case .recovered(let failedSteps):
            logger.info("search index recovered", ["failed_steps": .int(failedSteps)])
        }
    }

    /// The apply of acknowledged message rows (`--message-log-apply later`), failing or
    /// recovering, as a log line.
    static func logMessageLogApply(_ report: MessageLogApplyReport, logger: Logger) {
        switch report {
        case let .stepFailed(reason, failedSteps, waiting):
            logUpkeepFailure("message log apply failed; the rows stay in the log and are applied before any read, retried after the delay",
                             reason: reason, failedSteps: failedSteps, waiting: waiting, logger: logger)
        case .recovered(let failedSteps):
            logger.info("message log apply recovered", ["failed_steps": .int(failedSteps)])
        case let .syncFailed(reason, failedBatches):
            logger.error("message log sync failed; every write fails until the server is restarted",
                         ["error": .string(reason), "failed_batches": .int(failedBatches)])
        }
    }

    /// A step of the store writer's upkeep failed (told at the 1st, 10th, 100th… in a row).
    private static func logUpkeepFailure(_ message: String, reason: String, failedSteps: Int, waiting: Int, logger: Logger) {
        logger.warning(message, ["error": .string(reason), "failed_steps": .int(failedSteps), "waiting": .int(waiting)])
    }

    static func makeServices(configuration: ServerConfiguration, store: any Store, pool: BlockingPool, group: EventLoopGroup,
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
