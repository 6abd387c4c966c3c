/// Small, well-formed voice recordings built byte by byte for tests: the containers'
/// structure is what the server reads (the Opus packets inside are never decoded), so each
/// carries the headers, timestamps and a few packets of filler.
public enum VoiceRecordings {
    /// Opus in Ogg (RFC 7845) lasting `milliseconds`: an OpusHead page, an OpusTags page and
    /// audio pages of 20 ms packets, the last page's granule position giving the length.
    public static func ogg(milliseconds: Int, preSkip: Int = 312) -> [UInt8] {
        var head = Array("OpusHead".utf8) + [1, 1]
        head += [UInt8(preSkip & 0xFF), UInt8(preSkip >> 8)]
        head += [0x80, 0xBB, 0, 0, 0, 0, 0]                 // 48 kHz input, no gain, mapping 0
        let tags = Array("OpusTags".utf8) + [6, 0, 0, 0] + Array("parley".utf8) + [0, 0, 0, 0]
        var bytes = oggPage(head, granule: 0, sequence: 0, flags: 0x02)
        bytes += oggPage(tags, granule: 0, sequence: 1, flags: 0)
        let packets = max(1, milliseconds / 20)
        var sequence: UInt32 = 2
        var written = 0
        while written < packets {
            let count = min(10, packets - written)
            written += count
            let last = written == packets
            let granule = last ? Int64(milliseconds) * 48 + Int64(preSkip) : Int64(written) * 960 + Int64(preSkip)
            bytes += oggPage([UInt8](repeating: 0xF8, count: count * 3), granule: granule, sequence: sequence, flags: last ? 0x04 : 0,
                             segments: count)
            sequence += 1
        }
        return bytes
    }

    private static func oggPage(_ data: [UInt8], granule: Int64, sequence: UInt32, flags: UInt8, segments: Int = 1) -> [UInt8] {
        var page = Array("OggS".utf8) + [0, flags]
        let g = UInt64(bitPattern: granule)
        for i in 0..<8 { page.append(UInt8(truncatingIfNeeded: g >> (8 * UInt64(i)))) }
        page += [0x11, 0x22, 0x33, 0x44]                    // serial number
        for i in 0..<4 { page.append(UInt8(truncatingIfNeeded: sequence >> (8 * UInt32(i)))) }
        page += [0, 0, 0, 0]                                // checksum (not checked by the reader)
        let per = data.count / segments
        page.append(UInt8(segments))
        for index in 0..<segments { page.append(UInt8(index == segments - 1 ? data.count - per * (segments - 1) : per)) }
        return page + data
    }

    /// Opus in WebM lasting `milliseconds`, as a browser's `MediaRecorder` writes it: a
    /// Segment and Clusters of unknown size, no Duration unless `declaredDuration`, and
    /// SimpleBlocks every 20 ms; `codec` names the track's codec.
    public static func webm(milliseconds: Int, declaredDuration: Bool = false, codec: String = "A_OPUS") -> [UInt8] {
        var bytes = element([0x1A, 0x45, 0xDF, 0xA3], element([0x42, 0x82], Array("webm".utf8)))
        var segment: [UInt8] = []
        var info = element([0x2A, 0xD7, 0xB1], [0x0F, 0x42, 0x40])   // TimecodeScale 1,000,000 ns
        if declaredDuration {
            let duration = Double(milliseconds).bitPattern
            info += element([0x44, 0x89], (0..<8).map { UInt8(truncatingIfNeeded: duration >> (8 * UInt64(7 - $0))) })
        }
        segment += element([0x15, 0x49, 0xA9, 0x66], info)
        let track = element([0xD7], [1]) + element([0x86], Array(codec.utf8)) + element([0x83], [2])
        segment += element([0x16, 0x54, 0xAE, 0x6B], element([0xAE], track))
        // Clusters of one second each, blocks 20 ms apart, the last starting 20 ms before the end.
        var start = 0
        while start < milliseconds {
            var cluster = element([0xE7], [UInt8(truncatingIfNeeded: start >> 16), UInt8(truncatingIfNeeded: start >> 8),
                                           UInt8(truncatingIfNeeded: start)])
            var offset = 0
            while offset < 1000, start + offset + 20 <= milliseconds {
                cluster += element([0xA3], [0x81, UInt8(offset >> 8), UInt8(offset & 0xFF), 0x80, 0xF8, 0xFF, 0xFE])
                offset += 20
            }
            segment += [0x1F, 0x43, 0xB6, 0x75, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] + cluster
            start += 1000
        }
        bytes += [0x18, 0x53, 0x80, 0x67, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] + segment
        return bytes
    }

    /// An EBML element with a known size (written in eight bytes).
    private static func element(_ id: [UInt8], _ data: [UInt8]) -> [UInt8] {
        let size = UInt64(data.count)
        return id + [0x01] + (0..<7).map { UInt8(truncatingIfNeeded: size >> (8 * UInt64(6 - $0))) } + data
    }
}
