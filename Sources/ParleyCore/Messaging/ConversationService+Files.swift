public import ParleyProtocol

/// `file` messages: any upload of the sender's, with the name they gave it made safe.
extension ConversationService {
    /// The attachment of upload `mediaID`, which must be `user`'s own; `invalid_field`
    /// otherwise (someone else's upload is not theirs to send).
    static func attachment(_ mediaID: String, named name: String?, by user: UserID, writer: StoreWriter) throws -> FileAttachment {
        guard let media = try writer.media(id: mediaID), media.ownerID == user else {
            throw ProtocolError(.invalidField, "no upload of yours with that mediaId", field: "mediaId")
        }
        let isImage = media.imageType != nil
        return FileAttachment(mediaId: media.id, url: media.info.url, name: FileName.sanitized(name ?? ""), size: media.size,
                              type: media.mimeType, width: isImage ? media.width : nil, height: isImage ? media.height : nil)
    }

    /// The text kept with a send: a text message's text, a file's caption (none if blank).
    static func storedText(_ parameters: SendParameters) -> String? {
        switch parameters.kind {
        case .text: parameters.text
        case .file: parameters.text.flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 }
        case .image, .voice, .system: nil
        }
    }
}
