public import ParleyCore
public import ParleyNet

/// Settings of the XMPP listener (each one a `parley serve` option; docs/xmpp.md).
public struct XMPPConfiguration: Sendable {
    /// The domain of the server's JIDs (`user@domain`); clients must ask for it.
    public var domain: String
    /// Parser bounds for every client stream.
    public var limits: XMLStreamLimits
    /// Accept unencrypted client streams from non-loopback addresses (SCRAM only; PLAIN is
    /// never offered on them). Off: such connections get `policy-violation`.
    public var allowPlaintext: Bool
    /// How long a connection may take to sign in and bind a resource.
    public var authTimeout: Duration
    /// Close a stream that sent nothing for this long (clients send whitespace keepalives).
    public var idleTimeout: Duration
    /// Failed SASL attempts on one connection before it is closed.
    public var maxAuthFailures: Int
    /// Stanzas parsed and waiting on one connection before it stops being read.
    public var maxQueuedStanzas: Int
    /// The certificate for STARTTLS; nil: STARTTLS is not offered.
    public var tls: TLSContext?
    /// How long a resumable stream (XEP-0198) whose connection broke is kept for its client.
    public var resumeTimeout: Duration
    /// How long a stream may be silent between stanzas before its XML parser is freed (a new
    /// one is made on the next byte): idle sessions then hold no parser buffers.
    public var parserReleaseDelay: Duration
    /// A stream that sends again sooner than this after its parser was freed following a chat
    /// message is chatting: it keeps its parser until it has been silent this long
    /// (`ParserUpkeep`), instead of making a new one for every message. Zero: every stream
    /// frees it after `parserReleaseDelay`.
    public var parserKeepDelay: Duration
    /// The HTTP server's base URL, without a trailing slash: media paths (`/v1/media/<id>`)
    /// become absolute links with it, since a Jabber client knows no other server.
    public var publicURL: String
    /// Signs the links to uploads sent to Jabber clients (message bodies, out-of-band URLs,
    /// upload slots' download links), which fetch them without a Parley sign-in; nil sends
    /// plain paths (tests without a server secret). Avatars are public and stay unsigned.
    public var mediaURLs: MediaURLSigner?
    /// A secret of the server (the same on every node of a cluster, kept across restarts):
    /// SCRAM's salt for a username that has no account is derived from it, so the answer for
    /// an unknown name looks like a real account's and stays the same from try to try.
    public var decoySecret: [UInt8] = CryptoRandom.bytes(32)
    /// Most items one user may keep in the gateway's per-user storage: private XML
    /// namespaces (XEP-0049) and roster items given a name or groups together.
    public var maxPrivateItems = 1_000
    /// Recent messages per user the gateway remembers (`XMPPResources`): the resource and
    /// origin id each was sent with, and those waiting for a native peer's markers
    /// (`AwaitedReceipts`). Older ones are forgotten.
    public var receiptsKept = 64
    /// Most push registrations (XEP-0357 `enable`) one user keeps; one more is refused with
    /// `resource-constraint`.
    public var maxPushRegistrations = 8

    public init(domain: String, limits: XMLStreamLimits = XMLStreamLimits(), allowPlaintext: Bool = false,
                authTimeout: Duration = .seconds(30), idleTimeout: Duration = .seconds(900), maxAuthFailures: Int = 3,
                maxQueuedStanzas: Int = 64, tls: TLSContext? = nil, resumeTimeout: Duration = .seconds(300),
                parserReleaseDelay: Duration = .milliseconds(20), parserKeepDelay: Duration = .milliseconds(1_000),
                publicURL: String = "") {
        var base = publicURL
        while base.hasSuffix("/") { base.removeLast() }
        self.publicURL = base
        self.tls = tls
        self.resumeTimeout = resumeTimeout
        self.parserReleaseDelay = parserReleaseDelay
        self.parserKeepDelay = parserKeepDelay
        self.domain = domain
        self.limits = limits
        self.allowPlaintext = allowPlaintext
        self.authTimeout = authTimeout
        self.idleTimeout = idleTimeout
        self.maxAuthFailures = maxAuthFailures
        self.maxQueuedStanzas = maxQueuedStanzas
    }
}
