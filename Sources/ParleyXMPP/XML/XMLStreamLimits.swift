/// Bounds on what one client may make the parser hold. Each is a server setting
/// (`--xmpp-max-stanza-bytes`, `--xmpp-max-depth`, `--xmpp-max-attributes`); going past one
/// ends the stream with `policy-violation`.
public struct XMLStreamLimits: Sendable, Equatable {
    /// Bytes of one top-level stanza, from its start tag to its end tag; also the most input
    /// held between two stanzas (an unfinished tag or text counts as it arrives).
    public var maxStanzaBytes: Int
    /// Elements nested inside each other, counting `<stream:stream>` as 1 and a stanza as 2.
    public var maxDepth: Int
    /// Attributes on one element, namespace declarations included.
    public var maxAttributes: Int

    public init(maxStanzaBytes: Int = 256 * 1024, maxDepth: Int = 32, maxAttributes: Int = 64) {
        self.maxStanzaBytes = maxStanzaBytes
        self.maxDepth = maxDepth
        self.maxAttributes = maxAttributes
    }
}
