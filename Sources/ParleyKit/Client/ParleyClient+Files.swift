public import Foundation
public import ParleyProtocol

// Files from disk (docs/protocol.md, "Resumable uploads"): read a piece at a time, sent
// through a resumable upload that survives a dropped connection or a server restart, then
// sent as an image or a file message.
extension ParleyClient {
    /// Bytes read from disk and sent per `PATCH` unless told otherwise (8 MiB).
    public static let defaultUploadPieceBytes = 8 << 20

    /// Image types that go out as `image` messages (the web client shows them inline).
    static let inlineImageTypes: Set<String> = ["image/png", "image/jpeg", "image/gif", "image/webp"]

    /// Uploads the file at `url` and returns it as the server kept it (type sniffed from the
    /// bytes). The file is read `pieceBytes` at a time, never whole; each piece is sent with
    /// its offset, and a piece that fails for the connection's sake (dropped, refused, the
    /// server restarting) is sent again from where the server says the upload stands, up to
    /// `attempts` failures in a row. `progress(sent, total)` follows every piece the server
    /// kept. Errors: the server's (`payload_too_large`, `quota_exceeded`, `rate_limited` …),
    /// `.storage` when the file cannot be read or changes while it is sent, `.transport`
    /// after `attempts` failures.
    public func uploadFile(at url: URL, pieceBytes: Int = ParleyClient.defaultUploadPieceBytes, attempts: Int = 5,
                           progress: (@Sendable (_ sent: Int, _ total: Int) -> Void)? = nil) async throws(ParleyError) -> MediaInfo {
        let token = try requireToken()
        let handle: FileHandle
        let size: Int
        do {
            handle = try FileHandle(forReadingFrom: url)
            size = Int(try handle.seekToEnd())
        } catch {
            throw ParleyError.storage("cannot read \(url.path): \(error.localizedDescription)")
        }
        defer { try? handle.close() }
        var status = try await http.send("POST", "/v1/file-uploads", json: FileUploadRequest(size: size, name: url.lastPathComponent),
                                         token: token, as: FileUploadStatus.self)
        let path = "/v1/file-uploads/\(status.id)"
        progress?(status.offset, size)
        var failures = 0
        var lost = false
        while status.media == nil {
            do throws(ParleyError) {
                if lost {
                    // Where the server stands now: pieces it kept are not sent again.
                    status = try await http.send("GET", path, json: Optional<NoBody>.none, token: token, as: FileUploadStatus.self)
                    lost = false
                    continue
                }
                let piece = try Self.read(handle, at: status.offset, count: min(max(1, pieceBytes), size - status.offset), path: url.path)
                let answer = try await http.exchange("PATCH", path, body: piece, contentType: "application/octet-stream", token: token,
                                                     headers: ["Upload-Offset": String(status.offset)])
                do {
                    status = try JSONDecoder().decode(FileUploadStatus.self, from: answer)
                } catch {
                    throw ParleyError.invalidResponse("PATCH \(path): \(error)")
                }
                failures = 0
                progress?(status.offset, size)
            } catch {
                // Only what another try can mend: the link, or a piece that met another.
                let mendable: Bool
                switch error {
                case .transport: mendable = true
                case .server(let refusal): mendable = refusal.code == .uploadOffsetMismatch || refusal.code == .unavailable
                default: mendable = false
                }
                failures += 1
                guard mendable, failures < attempts else { throw error }
                lost = true
                try? await Task.sleep(for: .milliseconds(250 * failures))
            }
        }
        guard let media = status.media else { throw ParleyError.invalidResponse("PATCH \(path): no media") }
        return media
    }

    /// Uploads the file at `url` (`uploadFile`) and sends it to `conversation`: a PNG,
    /// JPEG, GIF or WebP picture without caption as an `image` message, anything else as a
    /// `file` message named after the file, with `caption`. Sent at once, not through the
    /// outbox; a retry with the same `clientId` never sends twice. Voice notes go with
    /// `sendVoice`, which carries their length and waveform.
    @discardableResult
    public func sendFile(at url: URL, to conversation: ConversationID, caption: String? = nil,
                         clientId: String = ParleyClient.newClientID(), pieceBytes: Int = ParleyClient.defaultUploadPieceBytes,
                         progress: (@Sendable (_ sent: Int, _ total: Int) -> Void)? = nil) async throws(ParleyError) -> Message {
        let media = try await uploadFile(at: url, pieceBytes: pieceBytes, progress: progress)
        let caption = caption.flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 }
        let parameters = Self.inlineImageTypes.contains(media.type) && media.width > 0 && caption == nil
            ? SendParameters(conversationId: conversation, clientId: clientId, kind: .image, mediaId: media.id)
            : SendParameters(conversationId: conversation, clientId: clientId, kind: .file, text: caption, mediaId: media.id,
                             name: url.lastPathComponent)
        let sent: Message = try await call(Op.MessageSend.self, parameters)
        ingest([sent])
        return sent
    }

    /// `count` bytes of the file at `offset`; `.storage` when there are fewer (it changed).
    static func read(_ handle: FileHandle, at offset: Int, count: Int, path: String) throws(ParleyError) -> Data {
        guard count > 0 else { return Data() }
        let piece: Data
        do {
            try handle.seek(toOffset: UInt64(offset))
            piece = try handle.read(upToCount: count) ?? Data()
        } catch {
            throw ParleyError.storage("cannot read \(path): \(error.localizedDescription)")
        }
        guard piece.count == count else { throw ParleyError.storage("\(path) changed while it was being sent") }
        return piece
    }
}
