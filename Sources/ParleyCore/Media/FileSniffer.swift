/// Tells what a file is from its first bytes, never from the name or the type a client
/// declared: those are what a hostile upload would lie about.
///
/// The answer decides how a download is served (inline or as an attachment), so anything
/// a browser could run (HTML, SVG, XML) is recognised as such rather than passed off as text.
public enum FileSniffer {
    /// How many leading bytes `sniff` looks at. Enough for a JPEG's size behind a large
    /// EXIF block in most files; a JPEG whose size lies further is kept as a plain file.
    public static let prefixBytes = 256 * 1024

    /// What a file is.
    public struct Result: Sendable, Equatable {
        /// The MIME type.
        public var mimeType: String
        /// Set for the accepted image formats, with their pixel size.
        public var image: ImageSniffer.Result?
    }

    /// The type of a file that starts with `prefix` (at most `prefixBytes` of it).
    public static func sniff(_ prefix: [UInt8]) -> Result {
        if let image = ImageSniffer.sniff(prefix) {
            return Result(mimeType: image.type.mimeType, image: image)
        }
        return Result(mimeType: binaryType(prefix) ?? textType(prefix), image: nil)
    }

    /// Formats known by their magic numbers.
    private static func binaryType(_ b: [UInt8]) -> String? {
        func at(_ offset: Int, _ magic: [UInt8]) -> Bool {
            b.count >= offset + magic.count && Array(b[offset..<offset + magic.count]) == magic
        }
        func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }
        if at(0, ascii("%PDF-")) { return "application/pdf" }
        if at(0, [0x50, 0x4B, 0x03, 0x04]) || at(0, [0x50, 0x4B, 0x05, 0x06]) { return "application/zip" }
        if at(0, [0x1F, 0x8B]) { return "application/gzip" }
        if at(0, ascii("7z")) && at(2, [0xBC, 0xAF, 0x27, 0x1C]) { return "application/x-7z-compressed" }
        // Any Ogg or WebM (Matroska), Opus or not; a WebM file is more often a video.
        switch AudioSniffer.container(of: b) {
        case .ogg: return "audio/ogg"
        case .webm: return "video/webm"
        case nil: break
        }
        if at(4, ascii("ftyp")) { return at(8, ascii("M4A ")) ? "audio/mp4" : "video/mp4" }
        if at(0, ascii("RIFF")) && at(8, ascii("WAVE")) { return "audio/wav" }
        if at(0, ascii("fLaC")) { return "audio/flac" }
        if at(0, ascii("ID3")) || isMPEGAudioFrame(b) { return "audio/mpeg" }
        return nil
    }

    /// An MPEG audio frame header: the sync bits, a layer, and a bitrate index that is
    /// neither "free" nor the forbidden one (so a UTF-16 byte order mark is not taken for one).
    private static func isMPEGAudioFrame(_ b: [UInt8]) -> Bool {
        guard b.count >= 3, b[0] == 0xFF, b[1] & 0xE0 == 0xE0, b[1] & 0x06 != 0 else { return false }
        let bitrate = b[2] >> 4
        return bitrate != 0 && bitrate != 0xF
    }

    /// Text, told apart from markup a browser would render or run.
    private static func textType(_ b: [UInt8]) -> String {
        guard !b.contains(0), isUTF8(b) else { return "application/octet-stream" }
        var start = b.startIndex
        if b.starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }
        while start < b.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(b[start]) { start += 1 }
        let head = String(decoding: b[start..<min(b.endIndex, start + 1024)], as: UTF8.self).lowercased()
        if head.contains("<svg") { return "image/svg+xml" }
        let htmlMarks = ["<!doctype html", "<html", "<head", "<body", "<script", "<iframe", "<meta", "<title", "<style"]
        if htmlMarks.contains(where: { head.hasPrefix($0) }) || head.contains("<script") { return "text/html" }
        if head.hasPrefix("<?xml") { return "application/xml" }
        return "text/plain"
    }

    /// Whether `bytes` are valid UTF-8, allowing a sequence cut off at the very end (the
    /// prefix may end inside a character).
    private static func isUTF8(_ bytes: [UInt8]) -> Bool {
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let length: Int
            switch lead {
            case 0x00...0x7F: length = 1
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: return false
            }
            if index + length > bytes.count { return bytes.count >= FileSniffer.prefixBytes }
            for next in bytes[(index + 1)..<(index + length)] where next & 0xC0 != 0x80 { return false }
            index += length
        }
        return true
    }

    /// A file name extension for a MIME type this sniffer answers (`bin` for the rest).
    public static func fileExtension(of mimeType: String) -> String {
        switch mimeType {
        case "application/pdf": "pdf"
        case "application/zip": "zip"
        case "application/gzip": "gz"
        case "application/x-7z-compressed": "7z"
        case "audio/ogg": "ogg"
        case "video/webm": "webm"
        case "video/mp4": "mp4"
        case "audio/mp4": "m4a"
        case "audio/wav": "wav"
        case "audio/flac": "flac"
        case "audio/mpeg": "mp3"
        case "image/svg+xml": "svg"
        case "text/html": "html"
        case "application/xml": "xml"
        case "text/plain": "txt"
        default: "bin"
        }
    }
}
