import Foundation
import ParleyNet
public import ParleyCore

/// Everything `parley serve` can be told, from flags, environment variables and defaults
/// (in that order of precedence). One table, `ServerConfiguration.options`, names every
/// setting once: parsing, `--help` and the operations guide all come from it.
public struct ServerConfiguration: Sendable, Equatable {
    /// Address to listen on.
    public var host = "127.0.0.1"
    /// TCP port; 0 picks a free one (the chosen port is logged and written to `<data>/port`).
    public var port = 8080
    /// Directory for the database, media and other files.
    public var dataDirectory = "./data"
    /// Directory of the web client's static files.
    public var webRoot = ServerConfiguration.defaultWebRoot()
    /// Event-loop threads.
    public var loops = max(1, EventLoopGroup.coreCount)
    /// Most malloc arenas (the heaps threads allocate from); 0 keeps glibc's default (8 a core).
    public var heapArenas = 1
    /// Threads for blocking work (database, password hashing).
    public var blockingThreads = 4
    /// Lowest log level written: debug, info, warning or error.
    public var logLevel = "info"
    /// Most connections open at once; 0 means as many as file descriptors allow.
    public var maxConnections = 0
    /// Seconds without any bytes from a peer before its connection is closed.
    public var idleTimeoutSeconds = 120
    /// Seconds a peer may leave our writes unread before it is cut off.
    public var writeStallTimeoutSeconds = 30
    /// Bytes that may wait to be written to one peer before it is cut off.
    public var maxQueuedBytesPerConnection = 4 * 1024 * 1024
    /// Largest HTTP request head (request line and headers), in bytes.
    public var maxHeaderBytes = 16 * 1024
    /// Most header fields in one HTTP request.
    public var maxHeaderCount = 100
    /// Longest request URI, in bytes.
    public var maxURILength = 8 * 1024
    /// Largest HTTP request body, in bytes.
    public var maxBodyBytes = 8 * 1024 * 1024
    /// Largest WebSocket frame, in bytes.
    public var maxWebSocketFrameBytes = 64 * 1024
    /// Largest WebSocket message (all fragments), in bytes.
    public var maxWebSocketMessageBytes = 1024 * 1024
    /// Browser origins allowed to open WebSockets, comma-separated; empty means same origin
    /// as the Host header; `*` allows any.
    public var allowedOrigins = ""
    /// Seconds a request's line and headers may take to arrive once its first byte has.
    public var headerTimeoutSeconds = 10
    /// Slowest a request body may arrive, in bytes a second (judged after `headerTimeoutSeconds`).
    public var minimumBodyBytesPerSecond = 1024
    /// Reverse proxies (CIDR ranges or addresses, comma-separated) whose `X-Forwarded-For` /
    /// `Forwarded` headers name the client; empty believes no one's.
    public var trustedProxies = ""
    /// Seconds a graceful shutdown waits for connections to finish.
    public var shutdownTimeoutSeconds = 5
    /// How SMS codes are delivered: `file` (append to `<data>/sms-outbox.jsonl`, for
    /// development) or `webhook` (POST to `smsWebhookURL`).
    public var smsSender = "file"
    /// The SMS gateway's URL for the `webhook` sender.
    public var smsWebhookURL = ""
    /// Digits in an SMS code (4–8).
    public var smsCodeLength = 6
    /// Largest image upload, in bytes.
    public var maxMediaBytes = 5 * 1024 * 1024
    /// Largest file upload (`POST /v1/files`, streamed to disk), in bytes.
    public var maxFileBytes = 100 * 1024 * 1024
    /// Seconds a signed media link (`media.url`) stays valid, at least.
    public var mediaURLSeconds = 3_600
    /// Seconds the signed media links sent to Jabber clients stay valid, at least.
    public var xmppMediaURLSeconds = 7 * 86_400
    /// Most pixels (width × height) of an image upload, and of an image a thumbnail is made of.
    public var maxImagePixels = 50_000_000
    /// Seconds a resumable upload (`/v1/file-uploads`) is kept with no piece arriving.
    public var uploadExpirySeconds = 86_400
    /// Unfinished resumable uploads one user may hold at once.
    public var maxOpenUploadsPerUser = 5
    /// Bytes one user may upload in any 24 hours.
    public var mediaQuotaBytesPerDay = 200 * 1024 * 1024
    /// Bytes of uploads one user may hold at once.
    public var mediaQuotaBytes = 2 * 1024 * 1024 * 1024
    /// Uploads one user may make in any minute.
    public var mediaUploadsPerMinute = 30
    /// Hours an upload no message or avatar uses is kept; 0 keeps them all.
    public var orphanMediaHours = 24
    /// Seconds an upload slot (XMPP HTTP upload) may be used after it was granted.
    public var uploadSlotLifetimeSeconds = 300
    /// Unused upload slots one user may hold at once.
    public var uploadSlotsPerUser = 10
    /// Password hashing cost: `interactive` (argon2id, 64 MiB; use this) or `minimum` (fast and
    /// weak: for tests and benchmarks only).
    public var passwordCost = "interactive"
    /// Seconds a new WebSocket may take to authenticate.
    public var webSocketAuthTimeoutSeconds = 10
    /// Requests one WebSocket may have waiting before it is closed (1008).
    public var maxQueuedRequestsPerConnection = 256
    /// Threads that answer database reads (with PostgreSQL, each has its own connection).
    public var databaseReaders = 2
    /// Where the data is kept: empty for the embedded SQLite file `<data>/parley.sqlite`, or a
    /// PostgreSQL URI (`postgres://user@host:port/database`) for a database that several
    /// servers may share.
    public var store = ""
    /// NATS server(s) (`nats://host:port`, comma-separated) joining this server to a cluster
    /// of servers on the same PostgreSQL database; empty: a single server, events stay in
    /// process.
    public var nats = ""
    /// This server's name in the cluster (logs, NATS subjects); empty: a random one.
    public var nodeID = ""
    /// Seconds between a cluster node's heartbeats (a digest of its connected users and room
    /// entries; the full lists when another node asks for them).
    public var clusterHeartbeatSeconds = 2
    /// Heartbeats a node may miss before the others take its users for disconnected.
    public var clusterMissedHeartbeats = 3
    /// Seconds after which a node's heartbeat carries its full lists even though no node
    /// asked for them (a last resort: a node whose copy differs from a digest asks at once).
    public var clusterFullBeatSeconds = 60
    /// PostgreSQL writer threads, each with its own connection (SQLite always has one writer).
    public var databaseWriters = 1
    /// Most writes committed together in one transaction (group commit).
    public var databaseBatchLimit = 256
    /// `segment`: message inserts are made durable by the segment log in
    /// `<data>/message-log/` (synced before SQLite's commit, which then needs no sync of its
    /// own); `off`: SQLite syncs every commit. SQLite store only.
    public var messageLog = "off"
    /// Bytes per segment file of the message log (only whole segments are deleted).
    public var messageLogSegmentBytes = 16 << 20
    /// Bytes in the message log's segments above which retention waits for readers to
    /// checkpoint SQLite's WAL so that old segments can go.
    public var messageLogMaxBytes = 256 << 20
    /// `now`: a message row reaches SQLite in its send's transaction; `later`: the send is
    /// acknowledged once its row is in the message log, and the writer inserts rows into
    /// SQLite later in larger batches (before anything could read them). Needs `segment`.
    public var messageLogApply = "now"
    /// With `later`: acknowledged rows waiting that make an apply step due at once.
    public var messageLogApplyBatch = 512
    /// With `later`: milliseconds an acknowledged row may wait for its insert when fewer
    /// than the batch wait and nothing reads.
    public var messageLogApplyDelayMilliseconds = 250
    /// Requests a second one WebSocket may make on average (floods get `rate_limited`).
    public var webSocketRequestsPerSecond = 100
    /// Requests one WebSocket may make in a burst above that rate.
    public var webSocketRequestBurst = 200
    /// Milliseconds a fan-out event (to three users or more: groups, rooms) may wait so that
    /// the events of that time share one system call per connection; 0 flushes every event
    /// in its loop turn.
    public var fanOutWindowMilliseconds = 10
    /// Every free-text field's length in characters (Unicode scalars) and UTF-8 bytes: the
    /// nickname, signature, hobbies, friend-request greeting, group and room names and
    /// descriptions, text messages and client ids (`--max-<field>-length`, `--max-<field>-bytes`).
    public var textLimits = TextLimits()
    /// Failed logins one username may have in 15 minutes before it must wait.
    public var loginFailuresPerAccount = 10
    /// Failed logins one client address may have in 15 minutes.
    public var loginFailuresPerAddress = 100
    /// Accounts one client address may register per hour.
    public var registrationsPerAddress = 30
    /// Connections one client address may hold at once; 0 turns the limit off.
    public var maxConnectionsPerAddress = 4096
    /// SMS codes one phone number may be sent in 24 hours.
    public var smsPerPhonePerDay = 10
    /// SMS code requests one client address may make per hour.
    public var smsPerAddressPerHour = 20
    /// Seconds before another SMS code may be sent to the same number.
    public var smsResendIntervalSeconds = 60
    /// Days a deleted account's username stays reserved (0: free at once).
    public var usernameQuarantineDays = 30
    /// `yes`: a deleted account's messages lose their content; `no`: they stay, from
    /// "Deleted user".
    public var eraseMessagesOnDelete = "no"
    /// Hours a finished account export is kept for download.
    public var exportHours = 24
    /// Largest account export archive, in bytes.
    public var maxExportBytes = 256 << 20
    /// Most messages in one account export.
    public var maxExportMessages = 1_000_000
    /// A session's device name in characters (`Credentials.deviceName`; longer ones are cut).
    public var maxDeviceNameLength = 64
    /// Most messages in one `message.history` page (larger requests get this many).
    public var maxHistoryPage = 100
    /// Most messages in one page of the message archive (XMPP's XEP-0313 queries).
    public var maxArchivePage = 100
    /// Missed messages per conversation in one `sync`; older ones are left for history paging.
    public var syncMessagesPerConversation = 100
    /// Conversations whose member lists are kept in memory for sending messages (0 = none;
    /// always none on PostgreSQL, where other servers may change membership).
    public var membershipCacheConversations = 100_000
    /// Seconds after sending during which a sender may edit a text message.
    public var editWindowSeconds = 48 * 3600
    /// Seconds after sending during which a sender may recall a message.
    public var recallWindowSeconds = 120
    /// Different emoji one user may put on one message.
    public var maxReactionsPerUser = 8
    /// Pinned messages per conversation.
    public var maxPins = 10
    /// Characters of the quoted text in a reply's excerpt.
    public var replyExcerptCharacters = 100
    /// Members one message may mention.
    public var maxMentions = 50
    /// Admins one group may have besides its owner.
    public var maxGroupAdmins = 10
    /// Usable invite links one group may have at once.
    public var maxGroupInvites = 50
    /// Pending join requests one group keeps.
    public var maxJoinRequests = 500
    /// Characters of a ban's reason.
    public var maxBanReason = 200
    /// Seconds a `typing.start` shows without a refresh.
    public var typingTimeoutSeconds = 6
    /// `typing.start` and `typing.stop` one user may send per minute.
    public var maxTypingPerMinute = 120
    /// Reports one user may file per hour (`ServerConfiguration+Admin`).
    public var maxReportsPerHour = 20
    /// A report's note, in bytes.
    public var maxReportNoteBytes = 1_000
    /// A reason an administrator gives, in bytes.
    public var maxAdminReasonBytes = 500
    /// Rows in one page of the admin API.
    public var adminPageSize = 50
    /// The local admin socket's path: empty for `<data>/admin.sock`, `off` for none.
    public var adminSocket = ""
    /// Seconds an admin socket connection may stay silent.
    public var adminSocketTimeoutSeconds = 30
    /// Bytes of one admin socket request line.
    public var maxAdminSocketLineBytes = 65_536
    /// Admin socket connections served at once.
    public var maxAdminSocketConnections = 4
    /// Hits in one `message.search` page.
    public var maxSearchPage = 50
    /// Messages a search of short words only looks at per page.
    public var searchScanLimit = 2000
    /// Messages a search reads newest first before it turns to the trigram index.
    public var searchWalkRows = MessageSearchQuery.defaultWalkRows
    /// Characters of the excerpt around a search hit.
    public var searchExcerptCharacters = 80
    /// Characters of a search query.
    public var maxSearchQueryCharacters = 200
    /// `user.search` calls one user may make per minute.
    public var userSearchesPerMinute = 30
    /// Profiles in one `user.search` answer.
    public var maxUserSearchPage = 20
    /// Most messages the SQLite store adds to its full-text index in one transaction (after
    /// their sends; also the unindexed tail that makes indexing due at once).
    public var searchIndexBatch = 200
    /// Milliseconds a sent message may wait before the SQLite store indexes it for search.
    public var searchIndexIntervalMilliseconds = 1000
    /// Longest voice recording, in seconds.
    public var maxVoiceSeconds = 120
    /// Largest voice recording, in bytes.
    public var maxVoiceBytes = 2 * 1024 * 1024
    /// The server's base URL as clients elsewhere reach it (e.g. `https://chat.example.org`),
    /// for links the server hands out in other protocols (media in XMPP); empty means
    /// `http://<host>:<port>`.
    public var publicURL = ""
    /// TCP port of the XMPP (Jabber) client listener; 0 turns it off.
    public var xmppPort = 5222
    /// The domain of XMPP addresses (`user@domain`); clients must name it.
    public var xmppDomain = ServerConfiguration.defaultXMPPDomain()
    /// Accept unencrypted XMPP streams from non-loopback addresses (`yes`/`no`). PLAIN is
    /// never offered on them.
    public var xmppAllowPlaintext = "no"
    /// Largest XMPP stanza, in bytes.
    public var xmppMaxStanzaBytes = 256 * 1024
    /// Deepest element nesting in an XMPP stream (the stream is 1, a stanza 2).
    public var xmppMaxDepth = 32
    /// Most attributes (namespace declarations included) on one XMPP element.
    public var xmppMaxAttributes = 64
    /// Seconds an XMPP connection may take to sign in and bind a resource.
    public var xmppAuthTimeoutSeconds = 30
    /// Seconds of silence before an XMPP stream is closed (clients send keepalives).
    public var xmppIdleTimeoutSeconds = 900
    /// Seconds a broken resumable XMPP stream (XEP-0198) waits for its client.
    public var xmppResumeTimeoutSeconds = 300
    /// Most items one user keeps through XMPP: private XML namespaces and named roster items.
    public var xmppMaxPrivateItems = 1_000
    /// Recent messages per user the XMPP gateway remembers: which resource sent each (and
    /// its origin id), and which wait for a native peer's receipt.
    public var xmppReceiptsKept = 64
    /// Most XMPP push registrations (XEP-0357) one user keeps.
    public var xmppMaxPushRegistrations = 8
    /// Most personal eventing (XEP-0163) nodes one user keeps.
    public var pepMaxNodesPerUser = 64
    /// Largest payload of one personal eventing item, in bytes.
    public var pepMaxItemBytes = 65_536
    /// Most items one personal eventing node keeps, whatever its `max_items` asks.
    public var pepMaxItemsPerNode = 32
    /// Milliseconds an XMPP stream may be silent between stanzas before its XML parser is freed.
    public var xmppParserReleaseMilliseconds = 20
    /// Milliseconds of silence a chatting XMPP stream (one back within this long after its
    /// parser was freed following a chat message) keeps its parser for.
    public var xmppParserKeepMilliseconds = 1_000
    /// PEM certificate chain for XMPP's STARTTLS; with `xmppTLSKey`, STARTTLS is offered.
    public var xmppTLSCertificate = ""
    /// PEM private key of that certificate.
    public var xmppTLSKey = ""
    /// PEM certificate chain for TLS on the main port (HTTPS, WSS) and, unless the
    /// `xmppTLS*` pair is given, for XMPP; with `tlsKey`, TLS is on. Reloaded on SIGHUP.
    public var tlsCertificate = ""
    /// PEM private key of `tlsCertificate`.
    public var tlsKey = ""
    /// TCP port for XMPP direct TLS (XEP-0368); 0 turns it off. Needs a certificate.
    public var xmppTLSPort = 0
    /// `max-age` of the `Strict-Transport-Security` header sent when TLS is on; 0: no header.
    public var hstsMaxAgeSeconds = 31_536_000
    /// Push notifications one user may be sent in any minute (`--push-per-user-per-minute`).
    public var pushPerUserPerMinute = 20
    /// Milliseconds messages for one user in one conversation are gathered into one push.
    public var pushCoalesceMilliseconds = 1_000
    /// Times a push that failed for a passing reason is tried again, with doubling pauses.
    public var pushRetries = 3
    /// Seconds one push request may take before it counts as failed.
    public var pushTimeoutSeconds = 10
    /// Pushes waiting to be sent at once, across all users; more are dropped.
    public var pushMaxQueued = 10_000
    /// The VAPID contact (`sub`) push services may write to: a `mailto:` or `https:` URL.
    public var pushContact = "mailto:postmaster@localhost"
    /// The push gateway (Matrix Push Gateway API) for app devices that name none.
    public var pushGatewayURL = ""
    /// Push registrations (browsers and app devices) one user may have.
    public var pushTargetsPerUser = 20
    /// Longest Web Push endpoint or push gateway URL accepted, in bytes.
    public var pushMaxURLBytes = 2048
    /// Longest app id or push key accepted, in bytes.
    public var pushMaxKeyBytes = 512
    /// `yes` lets push endpoints and gateways on loopback (plain HTTP) be registered and
    /// reached: for tests only, since clients choose these URLs.
    public var pushAllowLoopback = "no"

    public init() {}

    /// One setting: its flag, environment variable, help text, what happens when a client
    /// reaches it (for limits), and how to apply a value.
    public struct Option: Sendable {
        public let flag: String
        public let environment: String
        public let help: String
        /// For a limit, what a client that crosses it gets (status, error or close code);
        /// empty for settings that are not limits.
        public let whenExceeded: String
        let apply: @Sendable (inout ServerConfiguration, String) throws(ConfigurationError) -> Void
        let current: @Sendable (ServerConfiguration) -> String
    }

    /// Every setting of `parley serve`.
    public static let options: [Option] = [
        text("host", \.host, "address to listen on"),
        number("port", \.port, 0...65535, "TCP port; 0 picks a free one"),
        text("data", \.dataDirectory, "directory for the database and files", environment: "PARLEY_DATA"),
        text("web", \.webRoot, "directory of the web client's files", environment: "PARLEY_WEB"),
        number("loops", \.loops, 1...256, "event-loop threads (default: number of cores)"),
        number("heap-arenas", \.heapArenas, 0...1024, "most malloc arenas, the heaps threads allocate from (0: glibc's default, 8 a core); fewer arenas leave fewer half-used pages after a burst of sign-ins", exceeded: "threads share the arenas there are"),
        number("blocking-threads", \.blockingThreads, 1...256, "threads for database and hashing work"),
        choice("log-level", \.logLevel, ["debug", "info", "warning", "error"], "lowest log level written"),
        number("max-connections", \.maxConnections, 0...100_000_000, "most open connections; 0 = as many as descriptors allow", exceeded: "the new connection is accepted and closed at once, nothing sent (`parley_connections_refused_total`)"),
        number("idle-timeout", \.idleTimeoutSeconds, 1...86_400, "seconds of silence before a connection is closed", exceeded: "the connection is closed (`parley_connections_closed_total{reason=\"idle\"}`)"),
        number("write-stall-timeout", \.writeStallTimeoutSeconds, 1...3_600, "seconds a peer may leave our writes unread", exceeded: "the connection is cut off (`parley_connections_closed_total{reason=\"slow_peer\"}`)"),
        number("max-queued-bytes", \.maxQueuedBytesPerConnection, 64 * 1024...1 << 30, "bytes queued to one peer before it is cut off", exceeded: "the connection is cut off at once (`parley_connections_closed_total{reason=\"slow_peer\"}`)"),
        number("max-header-bytes", \.maxHeaderBytes, 1024...1 << 20, "largest HTTP request head", exceeded: "431 `headers_too_large`, connection closed"),
        number("max-header-count", \.maxHeaderCount, 8...10_000, "most HTTP header fields", exceeded: "431 `headers_too_large`, connection closed"),
        number("max-uri-length", \.maxURILength, 256...1 << 20, "longest request URI", exceeded: "414 `uri_too_long`, connection closed"),
        number("max-body-bytes", \.maxBodyBytes, 1024...1 << 30, "largest HTTP request body", exceeded: "413 `payload_too_large`, connection closed"),
        number("max-ws-frame-bytes", \.maxWebSocketFrameBytes, 125...1 << 26, "largest WebSocket frame", exceeded: "WebSocket closed with 1009"),
        number("max-ws-message-bytes", \.maxWebSocketMessageBytes, 125...1 << 28, "largest WebSocket message", exceeded: "WebSocket closed with 1009"),
        text("allowed-origins", \.allowedOrigins, "browser origins allowed on WebSockets besides --public-url's (comma-separated, * for any; empty with no --public-url = same origin as the Host header, scheme included)"),
        number("header-timeout", \.headerTimeoutSeconds, 1...3_600, "seconds a request's line and headers may take to arrive", exceeded: "408 `request_timeout`, connection closed"),
        number("min-body-rate", \.minimumBodyBytesPerSecond, 1...1 << 30, "slowest a request body may arrive, in bytes a second averaged over the body (judged once it has taken --header-timeout)", exceeded: "408 `request_timeout`, connection closed"),
        trustedProxiesOption(),
        number("shutdown-timeout", \.shutdownTimeoutSeconds, 0...600, "seconds a graceful shutdown waits"),
        choice("sms-sender", \.smsSender, ["file", "webhook"], "SMS delivery: file (<data>/sms-outbox.jsonl) or webhook"),
        text("sms-webhook-url", \.smsWebhookURL, "SMS gateway URL for the webhook sender"),
        number("sms-code-length", \.smsCodeLength, 4...8, "digits in an SMS code"),
        number("max-media-bytes", \.maxMediaBytes, 1024...1 << 30, "largest image upload", exceeded: "413 `payload_too_large`"),
        number("media-quota-bytes-per-day", \.mediaQuotaBytesPerDay, 1024...1 << 40, "bytes one user may upload in any 24 hours", exceeded: "429 `quota_exceeded` with `Retry-After` (when the oldest upload of the day leaves the window)"),
        number("media-quota-bytes", \.mediaQuotaBytes, 1024...1 << 50, "bytes of uploads one user may hold at once", exceeded: "429 `quota_exceeded` (unused uploads are removed after --orphan-media-hours)"),
        number("media-uploads-per-minute", \.mediaUploadsPerMinute, 1...1_000_000, "uploads one user may make in any minute", exceeded: "429 `rate_limited` with `Retry-After`"),
        number("orphan-media-hours", \.orphanMediaHours, 0...1_000_000, "hours an upload that no message or avatar uses is kept before it is removed (0 = kept for ever)", exceeded: "the upload's record and file are removed (checked every ten minutes)"),
        number("upload-slot-lifetime", \.uploadSlotLifetimeSeconds, 1...86_400, "seconds an upload slot (XMPP HTTP upload, XEP-0363) may be used after it was granted", exceeded: "the PUT gets 403 `forbidden` (expired); the client asks for a new slot"),
        number("upload-slots-per-user", \.uploadSlotsPerUser, 1...10_000, "unused, unexpired upload slots one user may hold", exceeded: "the slot request gets `resource-constraint`"),
        choice("password-cost", \.passwordCost, ["interactive", "minimum"], "argon2id cost (minimum: tests and benchmarks only)"),
        number("ws-auth-timeout", \.webSocketAuthTimeoutSeconds, 1...600, "seconds a WebSocket may take to authenticate", exceeded: "WebSocket closed with 4000"),
        number("max-queued-requests", \.maxQueuedRequestsPerConnection, 1...100_000, "requests one WebSocket may have waiting", exceeded: "WebSocket closed with 1008"),
        storeOption(),
        text("nats", \.nats, "NATS server URL(s), comma-separated, joining a cluster of servers on one PostgreSQL (empty: single server)"),
        text("node-id", \.nodeID, "this server's name in the cluster, letters, digits, - and _ (empty: random)"),
        number("cluster-heartbeat", \.clusterHeartbeatSeconds, 1...3_600, "seconds between a cluster node's heartbeats (a digest of its users and room entries, or the full lists)"),
        number("cluster-full-beat", \.clusterFullBeatSeconds, 1...86_400, "seconds after which a cluster node's heartbeat carries its full lists of users and room entries although no node asked (between them it carries their digest; a node whose copy differs asks at once)", exceeded: "the next heartbeat carries the full lists"),
        number("cluster-missed-heartbeats", \.clusterMissedHeartbeats, 1...1_000, "heartbeats a node may miss before its users count as disconnected", exceeded: "the node's users go offline and leave their rooms on the other nodes"),
        number("db-readers", \.databaseReaders, 1...64, "threads answering database reads (PostgreSQL: one connection each)"),
        number("db-writers", \.databaseWriters, 1...64, "PostgreSQL writer threads, one connection each (SQLite has one writer)"),
        number("db-batch-limit", \.databaseBatchLimit, 1...10_000, "most writes committed together in one transaction", exceeded: "further writes wait for the next transaction (nothing is refused)"),
        choice("message-log", \.messageLog, ["off", "segment"], "segment: message inserts are made durable by an append-only log in <data>/message-log/, synced before SQLite's commit, which then skips its own sync (SQLite store only; docs/architecture.md, \"The message log\"); off: SQLite syncs every commit"),
        number("message-log-segment-bytes", \.messageLogSegmentBytes, 1 << 20...1 << 30, "bytes per segment file of the message log; only whole segments are deleted, once SQLite's checkpoint holds their messages", exceeded: "a new segment file starts"),
        choice("message-log-apply", \.messageLogApply, ["now", "later"], "later (needs --message-log segment): a send is acknowledged once its row is synced to the message log, and the writer inserts rows into SQLite afterwards, many in one transaction, or first when anything reads or writes messages (docs/architecture.md, \"The message log\"); now: in the send's own transaction"),
        number("message-log-apply-batch", \.messageLogApplyBatch, 1...100_000, "acknowledged message rows waiting for SQLite (--message-log-apply later) that make the writer insert them all at once, between two batches of writes; writes queued meanwhile wait for that step", exceeded: "the waiting rows are inserted"),
        number("message-log-apply-delay-ms", \.messageLogApplyDelayMilliseconds, 0...3_600_000, "milliseconds an acknowledged message row may wait for its insert into SQLite (--message-log-apply later) while fewer than the batch wait and nothing reads; a read or another write applies the waiting rows first anyway", exceeded: "the waiting rows are inserted"),
        number("message-log-max-bytes", \.messageLogMaxBytes, 2 << 20...1 << 40, "bytes of message-log segments above which every commit is followed by a checkpoint that waits for readers, until the old segments can be deleted (a soft bound: a reader holding its snapshot past the busy timeout delays it)", exceeded: "checkpoints wait for readers until the log is below it"),
        number("ws-rate", \.webSocketRequestsPerSecond, 1...1_000_000, "requests a second one WebSocket may make on average", exceeded: "the request is answered `rate_limited` (`retryAfterSeconds` 1)"),
        number("ws-burst", \.webSocketRequestBurst, 1...1_000_000, "requests one WebSocket may make in a burst", exceeded: "the request is answered `rate_limited` (`retryAfterSeconds` 1)"),
        number("fanout-window-ms", \.fanOutWindowMilliseconds, 0...100, "milliseconds an event to three or more users (group, room, presence) may wait on a connection so that the events of that time share one write; anything else written to the connection sends it sooner; 0 = each event is written in its loop turn", exceeded: "the window ends and the connection's waiting events are written together"),
        number("login-failures-per-account", \.loginFailuresPerAccount, 1...100_000, "failed logins per username per 15 minutes", exceeded: "429 `rate_limited` with `Retry-After`, even for the right password"),
        number("login-failures-per-address", \.loginFailuresPerAddress, 1...1_000_000, "failed logins per client address per 15 minutes", exceeded: "429 `rate_limited` with `Retry-After`, even for the right password"),
        number("registrations-per-address", \.registrationsPerAddress, 1...1_000_000, "accounts registered per client address per hour", exceeded: "429 `rate_limited` with `Retry-After`"),
        number("max-connections-per-address", \.maxConnectionsPerAddress, 0...10_000_000, "connections one client address may hold; 0 = no limit", exceeded: "the new connection is accepted and closed at once, nothing sent (`parley_connections_refused_total`)"),
        number("sms-per-phone-per-day", \.smsPerPhonePerDay, 1...10_000, "SMS codes one phone number may be sent per 24 hours", exceeded: "429 `rate_limited` with `Retry-After`"),
        number("sms-per-address-per-hour", \.smsPerAddressPerHour, 1...1_000_000, "SMS code requests per client address per hour", exceeded: "429 `rate_limited` with `Retry-After`"),
        number("sms-resend-interval", \.smsResendIntervalSeconds, 1...86_400, "seconds before another SMS code may be sent to the same number (login, password reset, phone binding)", exceeded: "429 `rate_limited` with `Retry-After`"),
        number("username-quarantine-days", \.usernameQuarantineDays, 0...36_500, "days a deleted account's username stays reserved (0 = free at once)", exceeded: "registering or choosing the name gets 409 `username_taken` until then"),
        choice("erase-messages-on-delete", \.eraseMessagesOnDelete, ["no", "yes"], "what a deleted account's messages become: no = they stay, text kept, from \"Deleted user\"; yes = their text and images are erased (each keeps its place in the conversation, empty)"),
        number("export-hours", \.exportHours, 1...720, "hours a finished account export (POST /v1/me/export) is kept for download", exceeded: "the file is removed; GET /v1/me/export answers 404 `not_found`"),
        number("max-export-bytes", \.maxExportBytes, 1 << 20...1 << 31, "largest account export archive", exceeded: "the export fails: GET /v1/me/export answers 413 `payload_too_large`"),
        number("max-export-messages", \.maxExportMessages, 1...100_000_000, "most messages in one account export", exceeded: "the oldest this many of each conversation in turn are exported, the rest left out (not an error)"),
        number("max-device-name-length", \.maxDeviceNameLength, 1...1_000, "characters of a device name in the account's device list", exceeded: "the name is cut to this length (not an error)"),
        number("max-history-page", \.maxHistoryPage, 1...10_000, "most messages in one message.history page", exceeded: "a larger `limit` gets this many (not an error)"),
        number("max-archive-page", \.maxArchivePage, 1...10_000, "most messages in one page of the message archive (XMPP XEP-0313 queries; also the page a query without <max> gets)", exceeded: "a larger `<max>` gets this many (not an error)"),
        number("sync-messages-per-conversation", \.syncMessagesPerConversation, 1...10_000, "missed messages per conversation in one sync", exceeded: "the newest this many are sent and the conversation is listed in `truncated`"),
        number("membership-cache", \.membershipCacheConversations, 0...100_000_000, "conversations whose member lists (and 1:1 friend/block verdicts) are kept in memory (0 = none; always none with --store postgres)", exceeded: "an arbitrary half of the lists is dropped and read again from the store when next needed"),
        text("public-url", \.publicURL, "base URL clients elsewhere reach the server at: links in XMPP, the WebSocket origin allowed, and with it only its host name (and loopback names) are answered (empty: http://<host>:<port>)", exceeded: "a request whose Host names another host gets 421 `misdirected_request`; a WebSocket from another origin 403 `forbidden`"),
        number("xmpp-port", \.xmppPort, 0...65535, "XMPP (Jabber) client port; 0 turns XMPP off"),
        text("xmpp-domain", \.xmppDomain, "domain of XMPP addresses user@domain (default: the host name)"),
        choice("xmpp-allow-plaintext", \.xmppAllowPlaintext, ["no", "yes"], "accept unencrypted XMPP streams from other machines (SCRAM only)"),
        number("xmpp-max-stanza-bytes", \.xmppMaxStanzaBytes, 1024...1 << 26, "largest XMPP stanza", exceeded: "the stream ends with `policy-violation`"),
        number("xmpp-max-depth", \.xmppMaxDepth, 4...1000, "deepest XML nesting in an XMPP stream", exceeded: "the stream ends with `policy-violation`"),
        number("xmpp-max-attributes", \.xmppMaxAttributes, 4...10_000, "most attributes on one XMPP element", exceeded: "the stream ends with `policy-violation`"),
        number("xmpp-auth-timeout", \.xmppAuthTimeoutSeconds, 1...600, "seconds an XMPP connection may take to sign in", exceeded: "the stream ends with `policy-violation`"),
        number("xmpp-idle-timeout", \.xmppIdleTimeoutSeconds, 10...86_400, "seconds of silence before an XMPP stream is closed", exceeded: "the connection is closed"),
        number("xmpp-resume-timeout", \.xmppResumeTimeoutSeconds, 1...86_400, "seconds a broken resumable XMPP stream waits for its client", exceeded: "the session ends and its resources are released"),
        number("xmpp-max-private-items", \.xmppMaxPrivateItems, 1...1_000_000, "most items one user keeps through XMPP (private XML namespaces, named roster items)", exceeded: "a new item is refused with `resource-constraint`; replacing or removing one still works"),
        number("xmpp-receipts-kept", \.xmppReceiptsKept, 1...100_000, "recent messages per user the XMPP gateway remembers in memory: the resource and origin id each was sent with, and those waiting for a native friend's delivered or read marker", exceeded: "the oldest is forgotten: a message from it comes from the sender's bare resource without its origin id, and a receipt or displayed marker for it is not sent"),
        number("xmpp-max-push-registrations", \.xmppMaxPushRegistrations, 1...1_000, "most XMPP push registrations (XEP-0357 enable) one user keeps", exceeded: "one more `enable` is refused with `resource-constraint`"),
        number("xmpp-parser-release-ms", \.xmppParserReleaseMilliseconds, 10...86_400_000, "milliseconds an XMPP stream may be silent between stanzas before its XML parser (≈ 10 KiB) is freed", exceeded: "the parser is freed; the stream's next byte makes a new one (nothing is lost)"),
        number("xmpp-parser-keep-ms", \.xmppParserKeepMilliseconds, 0...86_400_000, "milliseconds of silence an XMPP stream sending chat messages (one back within this long after its parser was freed following a message) keeps its parser for, instead of making one per message (0: never kept longer than --xmpp-parser-release-ms)", exceeded: "the parser is freed after --xmpp-parser-release-ms; the stream's next byte makes a new one (nothing is lost)"),
        text("xmpp-tls-cert", \.xmppTLSCertificate, "PEM certificate chain for XMPP STARTTLS (empty: no STARTTLS)"),
        text("xmpp-tls-key", \.xmppTLSKey, "PEM private key for XMPP STARTTLS"),
        text("tls-cert", \.tlsCertificate, "PEM certificate chain: HTTPS and WSS on --port, and XMPP TLS unless --xmpp-tls-cert is given; reloaded on SIGHUP (empty: plaintext)", environment: "PARLEY_TLS_CERT"),
        text("tls-key", \.tlsKey, "PEM private key of --tls-cert", environment: "PARLEY_TLS_KEY"),
        number("xmpp-tls-port", \.xmppTLSPort, 0...65535, "XMPP direct TLS port (XEP-0368, ALPN xmpp-client); 0 turns it off"),
        number("hsts-max-age", \.hstsMaxAgeSeconds, 0...1_000_000_000, "max-age (seconds) of the Strict-Transport-Security header sent when TLS is on; 0 sends none"),
    ] + textLimitOptions() + pepOptions() + messageActionOptions() + governanceOptions() + pushOptions() + receiptOptions() + searchOptions()
        + fileOptions() + adminOptions() + voiceOptions()

    public static func == (a: ServerConfiguration, b: ServerConfiguration) -> Bool {
        options.allSatisfy { $0.current(a) == $0.current(b) }
    }
}
