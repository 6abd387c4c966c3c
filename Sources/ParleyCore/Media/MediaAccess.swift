public import ParleyProtocol

/// Who may fetch an upload (docs/protocol.md, "Media access"): anyone when an avatar uses
/// it; else its owner, and whoever may read a conversation a message carrying it was sent
/// to (the rules of `ConversationAccess`). Others get `forbidden`; an unknown id
/// `not_found`. Hands out signed links (`media.url`) after the same check.
public final class MediaAccess: Sendable {
    let context: MessagingContext
    /// Mints and checks the signed links.
    public let signer: MediaURLSigner

    public init(context: MessagingContext, signer: MediaURLSigner) {
        self.context = context
        self.signer = signer
    }

    /// `media.url`: a signed link to an upload `user` may see.
    public func url(for user: UserID, _ parameters: MediaURLParameters) async throws(ProtocolError) -> SignedMediaURL {
        let id = parameters.mediaId
        try await checkReadable(id, by: user)
        return signer.url(for: id, now: context.clock())
    }

    /// Succeeds when `user` may fetch upload `id`.
    public func checkReadable(_ id: String, by user: UserID) async throws(ProtocolError) {
        guard MediaService.isWellFormed(id: id) else { throw Self.notFound }
        let rooms = context.rooms
        try await context.gateway.read { reader in try Self.check(id, by: user, reader: reader, rooms: rooms) }
    }

    /// Whether anyone may fetch upload `id` without signing in (an avatar uses it).
    public func isPublic(_ id: String) async throws(ProtocolError) -> Bool {
        guard MediaService.isWellFormed(id: id) else { return false }
        return try await context.gateway.read { reader in try reader.mediaGrants(id: id).isPublic }
    }

    /// Checks a signed link's query values for upload `id` now (`bad_signature`,
    /// `url_expired`); returns when it expires (seconds since the epoch).
    @discardableResult
    public func verify(_ id: String, expires: String?, signature: String?) throws(ProtocolError) -> Int64 {
        try signer.verify(mediaID: id, expires: expires, signature: signature, now: context.clock())
        return expires.flatMap { Int64($0) } ?? 0
    }

    /// Milliseconds since the epoch, by the server's clock.
    public var now: Int64 { context.clock() }

    /// The rule, inside one read.
    static func check(_ id: String, by user: UserID, reader: StoreReader, rooms: RoomOccupancy) throws {
        guard let media = try reader.media(id: id) else { throw notFound }
        if media.ownerID == user { return }
        let grants = try reader.mediaGrants(id: id)
        if grants.isPublic { return }
        for conversation in grants.conversations {
            do {
                _ = try ConversationAccess.readable(conversation, by: user, reader: reader, rooms: rooms)
                return
            } catch is ProtocolError {
                // Not this one; another conversation it was forwarded to may be theirs.
                continue
            }
        }
        throw ProtocolError(.forbidden, "this upload was not sent to a conversation of yours")
    }

    static let notFound = ProtocolError(.notFound, "no such media")
}
