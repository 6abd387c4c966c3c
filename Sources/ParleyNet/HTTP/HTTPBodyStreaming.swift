/// Which request bodies go to a file on disk as they arrive rather than into memory, and
/// how large each may be.
///
/// For uploads of files far larger than any API body: the decoder writes each piece of the
/// body to a temporary file as it is parsed, so a connection holds no more than one read
/// buffer whatever the body's size, and the request reaches the responder with an
/// `HTTPBodyFile` instead of bytes. Every other request keeps `HTTPLimits.maxBodyBytes`.
public struct HTTPBodyStreaming: Sendable {
    /// The directory the temporary files are made in. Put it on the file system the files
    /// will finally live on, so that keeping one is a rename, not a copy.
    public var directory: String
    /// For a request head: the largest body to take (streamed to a file), or nil to read
    /// the body into memory under the ordinary limit. Called on the event loop, once per
    /// request: keep it to a look at the method and path.
    public var limit: @Sendable (HTTPRequestHead) -> Int?
    /// Decides from the head alone whether a streamed body is taken at all: nil admits it,
    /// a response refuses it (sent at once; the connection is then closed). While it runs
    /// the connection reads nothing more, so a refused upload (no sign-in, over a quota)
    /// costs neither bandwidth nor disk, and `Expect: 100-continue` is answered only after
    /// it admitted the body. Nil: every streamed body is taken without asking.
    public var admission: (@Sendable (HTTPRequestHead, HTTPRequestContext) async -> HTTPResponse?)?

    /// Creates the policy.
    public init(directory: String, limit: @escaping @Sendable (HTTPRequestHead) -> Int?,
                admission: (@Sendable (HTTPRequestHead, HTTPRequestContext) async -> HTTPResponse?)? = nil) {
        self.directory = directory
        self.limit = limit
        self.admission = admission
    }
}
