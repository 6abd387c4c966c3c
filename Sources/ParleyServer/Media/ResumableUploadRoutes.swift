import Foundation
import ParleyCore
import ParleyNet
import ParleyProtocol

/// The routes of resumable uploads (`docs/protocol.md`, "Resumable uploads"): create one,
/// ask where it stands, append a piece, drop it.
enum ResumableUploadRoutes {
    static func add(to routes: inout RouterBuilder<RouteAction>, accounts: AccountService, uploads: ResumableUploads) {
        let one = ResumableUploads.path + "/:id"

        routes.add(.post, ResumableUploads.path, .task { request throws(ProtocolError) in
            let session = try await AccountRoutes.authenticate(request, with: accounts)
            let body = try request.decodeBody(FileUploadRequest.self)
            let status = try await uploads.create(owner: session.userID, size: body.size, name: body.name)
            var response = answer(.created, status)
            response.headers.replaceOrAdd(name: "Location", value: ResumableUploads.path + "/" + status.id)
            return response
        })
        // Also HEAD: the router answers it with this route, without the body.
        routes.add(.get, one, .task { request throws(ProtocolError) in
            let session = try await AccountRoutes.authenticate(request, with: accounts)
            return answer(.ok, try uploads.status(id: request.parameters["id"] ?? "", owner: session.userID))
        })
        // The body was admitted from the head (`IncomingUploads.admit`) and arrived in a
        // temporary file; it is appended to the upload and removed.
        routes.add(.patch, one, .task { request throws(ProtocolError) in
            let session = try await AccountRoutes.authenticate(request, with: accounts)
            let offset = try IncomingUploads.uploadOffset(request.http.head.headers)
            guard let body = request.http.bodyFile, let path = body.claim() else {
                throw ProtocolError(.badRequest, "the piece's body is missing")
            }
            let status = try await uploads.append(id: request.parameters["id"] ?? "", owner: session.userID,
                                                  offset: offset, piece: path, count: body.size)
            return answer(status.media == nil ? .ok : .created, status)
        })
        routes.add(.delete, one, .task { request throws(ProtocolError) in
            let session = try await AccountRoutes.authenticate(request, with: accounts)
            try await uploads.cancel(id: request.parameters["id"] ?? "", owner: session.userID)
            return HTTPResponse(status: .noContent, headers: ["Cache-Control": "no-store"])
        })
    }

    /// The status as JSON, with its offset and length also as headers (a `HEAD` has only
    /// those).
    static func answer(_ status: HTTPStatus, _ upload: FileUploadStatus) -> HTTPResponse {
        var response = JSONCoding.response(status, upload)
        response.headers.replaceOrAdd(name: "Upload-Offset", value: String(upload.offset))
        response.headers.replaceOrAdd(name: "Upload-Length", value: String(upload.size))
        return response
    }
}
