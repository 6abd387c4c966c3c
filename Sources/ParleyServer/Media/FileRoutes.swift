import Foundation
import ParleyCore
import ParleyNet
import ParleyProtocol

/// Uploads of any file and downloads of every upload (`docs/protocol.md`, "Files").
enum FileRoutes {
    /// Types a browser may show in the page (an `<img>`, `<audio>`, `<video>`): they are
    /// served `inline`; everything else is an `attachment`, so a browser saves it rather
    /// than render it (HTML, SVG and the like never run under this origin).
    static let inlineTypes: Set<String> = [
        "image/png", "image/jpeg", "image/gif", "image/webp",
        "audio/ogg", "audio/mpeg", "audio/wav", "audio/flac", "audio/mp4", "video/webm", "video/mp4",
    ]

    static func add(to routes: inout RouterBuilder<RouteAction>, services: ServerServices) {
        let accounts = services.accounts
        let media = services.media
        let pool = services.pool

        // The body arrived in a temporary file (`IncomingUploads`); it is moved into the media
        // directory if kept, and removed with the request otherwise.
        routes.add(.post, IncomingUploads.filesPath, .task { request throws(ProtocolError) in
            let session = try await AccountRoutes.authenticate(request, with: accounts)
            guard let body = request.http.bodyFile, let path = body.claim() else {
                throw ProtocolError(.badRequest, "the upload's body is missing")
            }
            do throws(ProtocolError) {
                let info = try await media.uploadFile(at: path, size: body.size, owner: session.userID)
                return JSONCoding.response(.created, info)
            } catch {
                unlink(path)
                throw error
            }
        })
        let access = services.mediaAccess
        routes.add(.get, "/v1/media/:id", .task { request throws(ProtocolError) in
            let (stored, path) = try await media.locate(id: request.parameters["id"] ?? "")
            let grant = try await authorize(stored.id, request: request, access: access, accounts: accounts)
            return try download(stored, at: path, request: request, caching: grant.cacheControl(now: access.now), pool: pool)
        })
        // The same permission as the original's (a signed link of the upload's id works
        // for both); an image that needs no thumbnail of its own is served as it is.
        let thumbnails = services.thumbnails
        routes.add(.get, "/v1/media/:id/thumbnail", .task { request throws(ProtocolError) in
            let (stored, path) = try await media.locate(id: request.parameters["id"] ?? "")
            guard stored.imageType != nil else { throw ProtocolError(.notFound, "only images have thumbnails") }
            let caching = try await authorize(stored.id, request: request, access: access, accounts: accounts).cacheControl(now: access.now)
            guard ThumbnailRule.wanted(stored) else { return try download(stored, at: path, request: request, caching: caching, pool: pool) }
            let (thumbnail, file) = try await thumbnails.thumbnail(of: stored, original: path)
            return try download(thumbnail, at: file, request: request, caching: caching, pool: pool)
        })
    }

    /// Why a download is allowed; it decides how long caches may keep the answer.
    enum DownloadGrant: Equatable {
        /// An avatar: anyone, for good (the bytes under an id never change).
        case everyone
        /// A signed link, until it expires (seconds since the epoch).
        case signedUntil(Int64)
        /// A signed-in member: only this client, asking again each time.
        case session

        func cacheControl(now: Int64) -> String {
            switch self {
            case .everyone: return "public, max-age=31536000, immutable"
            case .signedUntil(let expires): return "private, max-age=\(max(0, expires - now / 1000))"
            case .session: return "private, no-cache"
            }
        }
    }

    /// Who may fetch upload `id` (docs/protocol.md, "Media access"): anyone for an avatar;
    /// else a valid signed link (`exp`, `sig`), or a session token whose user may see it.
    static func authorize(_ id: String, request: APIRequest, access: MediaAccess,
                          accounts: AccountService) async throws(ProtocolError) -> DownloadGrant {
        if try await access.isPublic(id) { return .everyone }
        let expires = request.queryItem("exp"), signature = request.queryItem("sig")
        if expires != nil || signature != nil {
            return .signedUntil(try access.verify(id, expires: expires, signature: signature))
        }
        guard request.bearerToken != nil else {
            throw ProtocolError(.unauthorized, "use a signed link (media.url) or send Authorization: Bearer <token>")
        }
        let session = try await AccountRoutes.authenticate(request, with: accounts)
        try await access.checkReadable(id, by: session.userID)
        return .session
    }

    /// The response for a download: conditional (`If-None-Match`), ranged (`Range`, one
    /// range, honoured only while `If-Range` still names this file), streamed from disk, each
    /// piece read on `pool`.
    static func download(_ stored: StoredMedia, at path: String, request: APIRequest,
                         caching cacheControl: String, pool: BlockingPool) throws(ProtocolError) -> HTTPResponse {
        let head = request.http.head
        let etag = "\"\(stored.id)\""
        let type = stored.mimeType
        let disposition = inlineTypes.contains(type) ? "inline" : "attachment"
        let name = request.queryItem("name").map(FileName.sanitized) ?? "\(stored.id).\(stored.fileExtension)"
        var headers: HTTPHeaders = [
            "Content-Type": type, "ETag": etag, "Accept-Ranges": "bytes",
            "Cache-Control": cacheControl,
            "Content-Disposition": FileName.contentDisposition(disposition, name: name),
        ]
        if head.headers[all: "If-None-Match"].contains(where: { $0.contains(etag) || $0.trimmingCharacters(in: .whitespaces) == "*" }) {
            headers.remove(name: "Content-Type")
            return HTTPResponse(status: .notModified, headers: headers)
        }
        var range = HTTPRange(header: head.headers[first: "Range"], length: stored.size)
        if let condition = head.headers[first: "If-Range"], !condition.contains(etag) { range = .whole }
        let offset: Int, length: Int
        var status = HTTPStatus.ok
        switch range {
        case .whole:
            (offset, length) = (0, stored.size)
        case .partial(let start, let count):
            (offset, length) = (start, count)
            status = .partialContent
            headers.add(name: "Content-Range", value: "bytes \(start)-\(start + count - 1)/\(stored.size)")
        case .unsatisfiable:
            var refusal = JSONCoding.errorResponse(ProtocolError(.rangeNotSatisfiable, "the file has \(stored.size) bytes"))
            refusal.headers.add(name: "Content-Range", value: "bytes */\(stored.size)")
            return refusal
        }
        let file: HTTPResponseFile
        do {
            file = try HTTPResponseFile(path: path, offset: offset, length: length, pool: pool)
        } catch {
            throw ProtocolError(.notFound, "no such media")
        }
        return HTTPResponse(status: status, headers: headers, file: file)
    }
}
