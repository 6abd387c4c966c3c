import Foundation
import ParleyCore
import ParleyNet
import ParleyProtocol

/// The upload routes whose bodies go straight to disk (`HTTPBodyStreaming`), and the
/// directory their temporary files live in until the upload is kept or refused.
enum IncomingUploads {
    /// The path of the file upload route.
    static let filesPath = "/v1/files"
    /// Where upload slots' bodies go (`PUT /v1/uploads/<token>`, XMPP's HTTP upload).
    static let slotsPrefix = "/v1/uploads/"

    /// Makes `<data>/incoming` (beside `<data>/media`, so keeping an upload is a rename)
    /// and empties it: what is there was left by a server that stopped mid-upload.
    static func prepare(dataDirectory: String) throws -> String {
        let directory = dataDirectory + "/incoming"
        let files = FileManager.default
        try files.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        for name in (try? files.contentsOfDirectory(atPath: directory)) ?? [] where name.hasSuffix(".part") {
            try? files.removeItem(atPath: directory + "/" + name)
        }
        return directory
    }

    /// Streams the bodies of `POST /v1/files`, of the pieces of resumable uploads
    /// (`PATCH /v1/file-uploads/<id>`) and of upload slots (`PUT /v1/uploads/<token>`) into
    /// `directory`, up to `maxFileBytes`, the first two admitted from their head first
    /// (`admit`); a slot's token is in its path, checked by its route.
    static func streaming(directory: String, maxFileBytes: Int, accounts: AccountService, media: MediaService,
                          resumable: ResumableUploads) -> HTTPBodyStreaming {
        HTTPBodyStreaming(directory: directory, limit: { head in
            isStreamed(head) ? maxFileBytes : nil
        }, admission: { head, context in
            if head.method == .put { return nil }
            do throws(ProtocolError) {
                try await admit(head, clientAddress: context.clientAddress, accounts: accounts, media: media, resumable: resumable)
                return nil
            } catch {
                var refusal = JSONCoding.errorResponse(error)
                if error.code == .uploadOffsetMismatch, let id = ResumableUploads.id(inPath: head.path),
                   let session = try? await accounts.authenticate(token: APIRequest.bearerToken(in: head.headers) ?? "",
                                                                  clientAddress: context.clientAddress),
                   let status = try? resumable.status(id: id, owner: session.userID) {
                    refusal.headers.replaceOrAdd(name: "Upload-Offset", value: String(status.offset))
                }
                return ParleyResponder.secured(refusal)
            }
        })
    }

    /// Whether the body of a request with this head goes to disk.
    static func isStreamed(_ head: HTTPRequestHead) -> Bool {
        (head.method == .post && head.path == filesPath)
            || (head.method == .patch && ResumableUploads.id(inPath: head.path) != nil)
            || (head.method == .put && head.path.hasPrefix(slotsPrefix))
    }

    /// Refuses, from the head alone, an upload that would be refused once whole: no valid
    /// token (401), over `--max-file-bytes` or a quota by its `Content-Length` (413, 429), a
    /// piece of a resumable upload that is not the caller's or does not start where it
    /// stands (404, 409). What passes is checked again when the body is there.
    static func admit(_ head: HTTPRequestHead, clientAddress: String, accounts: AccountService, media: MediaService,
                      resumable: ResumableUploads) async throws(ProtocolError) {
        guard let token = APIRequest.bearerToken(in: head.headers) else {
            throw ProtocolError(.unauthorized, "send Authorization: Bearer <token>")
        }
        let session = try await accounts.authenticate(token: token, clientAddress: clientAddress)
        let length = head.headers[first: "Content-Length"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        if let id = ResumableUploads.id(inPath: head.path) {
            let offset = try uploadOffset(head.headers)
            try resumable.checkPiece(id: id, owner: session.userID, offset: offset, length: length)
        } else {
            try await media.checkUpload(size: length ?? 0, owner: session.userID)
        }
    }

    /// The `Upload-Offset` header of a piece: a decimal count of bytes.
    static func uploadOffset(_ headers: HTTPHeaders) throws(ProtocolError) -> Int {
        guard let text = headers[first: "Upload-Offset"] else {
            throw ProtocolError(.missingField, "send Upload-Offset: <bytes the upload holds>", field: "Upload-Offset")
        }
        guard let offset = Int(text.trimmingCharacters(in: .whitespaces)), offset >= 0 else {
            throw ProtocolError(.invalidField, "Upload-Offset is a count of bytes", field: "Upload-Offset")
        }
        return offset
    }
}
