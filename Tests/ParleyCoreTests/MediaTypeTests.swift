import ParleyCore
import ParleyProtocol
import Testing

/// The one model of what an upload is, as the store keeps it in `media.type`: an image's or
/// a recording's short name, else a MIME type; every kind reads back as itself.
@Suite struct MediaTypeTests {
    @Test(arguments: [MediaType.image(.png), .image(.webp), .audio(.webm), .audio(.ogg),
                      .file(mimeType: "application/pdf"), .file(mimeType: "audio/ogg"), .file(mimeType: "video/webm")])
    func everyKindRoundTripsThroughItsStoredName(_ type: MediaType) {
        #expect(MediaType(rawValue: type.rawValue) == type)
    }

    @Test func namesAndMIMETypes() {
        #expect(MediaType.image(.jpeg).rawValue == "jpeg" && MediaType.image(.jpeg).mimeType == "image/jpeg")
        #expect(MediaType.audio(.ogg).rawValue == "ogg" && MediaType.audio(.ogg).mimeType == "audio/ogg")
        // An Ogg file sent as a file stays a file: its stored name is the MIME type.
        #expect(MediaType.file(mimeType: "audio/ogg").rawValue == "audio/ogg")
        #expect(MediaType.image(.gif).imageType == .gif && MediaType.audio(.webm).imageType == nil)
        #expect(MediaType(rawValue: "") == nil && MediaType(rawValue: "mp3") == nil)
    }

    @Test func aFileRecordNamesItsExtensionFromItsType() {
        let pdf = StoredMedia(id: "m", ownerID: UserID(1), type: .file(mimeType: "application/pdf"), width: 0, height: 0, size: 3, createdAt: 1)
        let voice = StoredMedia(id: "v", ownerID: UserID(1), type: .audio(.webm), durationMs: 900, width: 0, height: 0, size: 3, createdAt: 1)
        #expect(pdf.fileExtension == "pdf" && pdf.info.type == "application/pdf" && pdf.imageType == nil)
        #expect(voice.fileExtension == "webm" && voice.info.type == "audio/webm")
    }
}
