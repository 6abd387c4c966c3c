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
        routes.add(.get, "/v1/media/:id", .task { request throws(ProtocolError) in
            let (stored, path) = try await media.locate(id: request.parameters["id"] ?? "")
            return try download(stored, at: path, request: request, pool: pool)
        })
    }

    /// The response for a download: conditional (`If-None-Match`), ranged (`Range`, one
    /// range, honoured only while `If-Range` still names this file), streamed from disk, each
    /// piece read on `pool`.
    static func download(_ stored: StoredMedia, at path: String, request: APIRequest, pool: BlockingPool) throws(ProtocolError) -> HTTPResponse {
        let head = request.http.head
        let etag = "\"\(stored.id)\""
        let type = stored.mimeType
        let disposition = inlineTypes.contains(type) ? "inline" : "attachment"
        let name = request.queryItem("name").map(FileName.sanitized) ?? "\(stored.id).\(stored.fileExtension)"
        var headers: HTTPHeaders = [
            "Content-Type": type, "ETag": etag, "Accept-Ranges": "bytes",
            "Cache-Control": "public, max-age=31536000, immutable",
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
