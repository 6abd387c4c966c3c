import Testing
import ParleyCore

@Suite struct FileSnifferTests {
    private func type(_ bytes: [UInt8]) -> String { FileSniffer.sniff(bytes).mimeType }
    private func type(_ text: String) -> String { type(Array(text.utf8)) }

    @Test func knownFormatsByTheirMagic() {
        #expect(type("%PDF-1.7\n%âãÏÓ") == "application/pdf")
        #expect(type([0x50, 0x4B, 0x03, 0x04, 20, 0]) == "application/zip")
        #expect(type("OggS\u{0}\u{2}") == "audio/ogg")
        #expect(type([0x1A, 0x45, 0xDF, 0xA3, 1, 0]) == "video/webm")
        #expect(type([0, 0, 0, 0x20] + Array("ftypisom".utf8)) == "video/mp4")
        #expect(type("ID3\u{3}\u{0}") == "audio/mpeg")
        #expect(type([0x1F, 0x8B, 8, 0]) == "application/gzip")
    }

    @Test func markupBrowsersWouldRunIsNamedAsSuch() {
        #expect(type("<!DOCTYPE html><p>hi") == "text/html")
        #expect(type("\u{FEFF}  <html><body>") == "text/html")
        #expect(type("<script>alert(1)</script>") == "text/html")
        #expect(type("<svg onload=alert(1)>") == "image/svg+xml")
        #expect(type("<?xml version=\"1.0\"?><svg xmlns=\"http://www.w3.org/2000/svg\"/>") == "image/svg+xml")
        #expect(type("<?xml version=\"1.0\"?><note/>") == "application/xml")
    }

    @Test func textAndTheRest() {
        #expect(type("plain words, 中文 too\n") == "text/plain")
        #expect(type([]) == "text/plain")
        #expect(type([0xFF, 0xFE, 0x00, 0x41]) == "application/octet-stream")
        #expect(type([0x7F, 0x45, 0x4C, 0x46, 2, 1, 1, 0, 0]) == "application/octet-stream")
    }

    @Test func imagesKeepTheirSize() {
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        png += [0, 0, 0, 64, 0, 0, 0, 32, 8, 6, 0, 0, 0, 0, 0, 0, 0]
        let result = FileSniffer.sniff(png)
        #expect(result.mimeType == "image/png" && result.image?.width == 64 && result.image?.height == 32)
    }
}
