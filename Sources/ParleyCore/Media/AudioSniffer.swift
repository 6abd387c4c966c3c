/// Tells a voice recording's container and length from its bytes: Opus in Ogg or in WebM,
/// never trusting a name or header a client sent. Reads headers and timestamps only; one
/// pass over the bytes at most, so bounded work on any input.
public enum AudioSniffer {
    /// What the bytes are.
    public struct Result: Sendable, Equatable {
        public var type: AudioType
        /// The length the container records, in milliseconds.
        public var durationMs: Int
    }

    /// The container and its length, or nil if the bytes are not Opus in a well-formed Ogg
    /// or WebM stream with at least one timed packet.
    public static func sniff(_ bytes: [UInt8]) -> Result? {
        switch container(of: bytes) {
        case .ogg: ogg(bytes).map { Result(type: .ogg, durationMs: $0) }
        case .webm: webm(bytes).map { Result(type: .webm, durationMs: $0) }
        case nil: nil
        }
    }

    /// The container the bytes start with, by its magic number alone (an Ogg page, an EBML
    /// header), whatever it holds: `FileSniffer` names files by it too.
    public static func container(of bytes: [UInt8]) -> AudioType? {
        if bytes.starts(with: Array("OggS".utf8)) { return .ogg }
        if bytes.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return .webm }
        return nil
    }

    // MARK: - Ogg (RFC 3533, Opus mapping RFC 7845)

    /// Opus timestamps are counted at 48 kHz whatever the input rate.
    private static let opusRate = 48_000

    private static func ogg(_ b: [UInt8]) -> Int? {
        // The first page holds only the identification header "OpusHead".
        guard let first = oggPage(b, at: 0), b.count >= first.data + 19,
              Array(b[first.data..<first.data + 8]) == Array("OpusHead".utf8) else { return nil }
        let preSkip = Int(b[first.data + 10]) | Int(b[first.data + 11]) << 8
        // The end of the stream: the last page of this stream whose granule position is set
        // (-1 means no packet ends on the page).
        var at = b.count - 27
        while at > first.data {
            if b[at] == 0x4F, b[at + 1] == 0x67, b[at + 2] == 0x67, b[at + 3] == 0x53,
               let page = oggPage(b, at: at), page.serial == first.serial, page.granule >= 0 {
                let samples = page.granule - Int64(preSkip)
                guard samples > 0 else { return nil }
                return Int(samples * 1000 / Int64(opusRate))
            }
            at -= 1
        }
        return nil
    }

    private struct OggPage {
        var granule: Int64
        var serial: UInt32
        /// Where the page's data starts.
        var data: Int
    }

    private static func oggPage(_ b: [UInt8], at: Int) -> OggPage? {
        guard at >= 0, at + 27 <= b.count, b[at + 4] == 0 else { return nil }
        var granule: UInt64 = 0
        for i in 0..<8 { granule |= UInt64(b[at + 6 + i]) << (8 * UInt64(i)) }
        var serial: UInt32 = 0
        for i in 0..<4 { serial |= UInt32(b[at + 14 + i]) << (8 * UInt32(i)) }
        let segments = Int(b[at + 26])
        guard at + 27 + segments <= b.count else { return nil }
        return OggPage(granule: Int64(bitPattern: granule), serial: serial, data: at + 27 + segments)
    }

    // MARK: - WebM (Matroska's EBML)

    private enum ID {
        static let docType: UInt32 = 0x4282
        static let segment: UInt32 = 0x1853_8067
        static let info: UInt32 = 0x1549_A966
        static let timecodeScale: UInt32 = 0x2A_D7B1
        static let duration: UInt32 = 0x4489
        static let tracks: UInt32 = 0x1654_AE6B
        static let trackEntry: UInt32 = 0xAE
        static let codecID: UInt32 = 0x86
        static let cluster: UInt32 = 0x1F43_B675
        static let timecode: UInt32 = 0xE7
        static let blockGroup: UInt32 = 0xA0
        static let block: UInt32 = 0xA1
        static let simpleBlock: UInt32 = 0xA3
    }

    /// Elements whose children are read in place: the walk steps into them rather than over
    /// them, so their size may be "unknown" (as a live recorder writes Segment and Cluster).
    private static let containers: Set<UInt32> = [ID.segment, ID.info, ID.tracks, ID.trackEntry, ID.cluster, ID.blockGroup]

    /// An Opus frame's usual length: the last block's start plus this is the stream's end
    /// when the recorder wrote no Duration (browsers recording live do not).
    private static let lastFrameMillis = 20

    private static func webm(_ b: [UInt8]) -> Int? {
        // The EBML header: its DocType must be "webm".
        guard let header = element(b, at: 0), let headerEnd = header.end else { return nil }
        var docType: String?
        var at = header.data
        while at < headerEnd, let child = element(b, at: at), let end = child.end, end <= headerEnd {
            if child.id == ID.docType { docType = String(decoding: b[child.data..<end], as: UTF8.self) }
            at = end
        }
        guard docType == "webm" else { return nil }
        var scale = 1_000_000.0                 // nanoseconds per timecode unit
        var declared: Double?
        var opus = false
        var clusterTime: Int64 = 0
        var lastBlock: Int64?
        at = headerEnd
        // Each step moves past a header or a whole element: at most one step per byte.
        while at < b.count, let next = element(b, at: at) {
            if containers.contains(next.id) {
                at = next.data
                continue
            }
            guard let end = next.end, end <= b.count else { break }
            switch next.id {
            case ID.timecodeScale:
                if let value = unsigned(b, next.data, end), value > 0 { scale = Double(value) }
            case ID.duration:
                declared = float(b, next.data, end)
            case ID.codecID:
                if String(decoding: b[next.data..<end], as: UTF8.self).hasPrefix("A_OPUS") { opus = true }
            case ID.timecode:
                clusterTime = Int64(unsigned(b, next.data, end) ?? 0)
            case ID.block, ID.simpleBlock:
                // Track number (a size-style varint), then the time relative to the cluster.
                if let track = vint(b, at: next.data, keepMarker: false), track.length + 2 <= end - next.data {
                    let raw = Int16(bitPattern: UInt16(b[next.data + track.length]) << 8 | UInt16(b[next.data + track.length + 1]))
                    let time = clusterTime + Int64(raw)
                    lastBlock = max(lastBlock ?? time, time)
                }
            default:
                break
            }
            at = end
        }
        guard opus else { return nil }
        let millisPerUnit = scale / 1_000_000
        if let declared, declared.isFinite, declared > 0, declared * millisPerUnit < Double(Int32.max) {
            return Int(declared * millisPerUnit)
        }
        guard let lastBlock, lastBlock >= 0, Double(lastBlock) * millisPerUnit < Double(Int32.max) else { return nil }
        return Int(Double(lastBlock) * millisPerUnit) + lastFrameMillis
    }

    private struct Element {
        var id: UInt32
        /// Where the content starts.
        var data: Int
        /// Where the content ends; nil for an unknown size.
        var end: Int?
    }

    private static func element(_ b: [UInt8], at: Int) -> Element? {
        guard let id = vint(b, at: at, keepMarker: true), id.length <= 4,
              let size = vint(b, at: at + id.length, keepMarker: false) else { return nil }
        let data = at + id.length + size.length
        let unknown = size.value == (UInt64(1) << (7 * UInt64(size.length))) - 1
        guard !unknown else { return Element(id: UInt32(id.value), data: data, end: nil) }
        guard size.value <= UInt64(b.count) else { return nil }
        return Element(id: UInt32(id.value), data: data, end: data + Int(size.value))
    }

    /// An EBML variable-length integer: its length is told by the first byte's leading zeros.
    private static func vint(_ b: [UInt8], at: Int, keepMarker: Bool) -> (value: UInt64, length: Int)? {
        guard at >= 0, at < b.count, b[at] != 0 else { return nil }
        let length = b[at].leadingZeroBitCount + 1
        guard at + length <= b.count else { return nil }
        var value = UInt64(keepMarker ? b[at] : b[at] & (0xFF >> length))
        for i in 1..<length { value = value << 8 | UInt64(b[at + i]) }
        return (value, length)
    }

    private static func unsigned(_ b: [UInt8], _ from: Int, _ to: Int) -> UInt64? {
        guard to - from >= 1, to - from <= 8 else { return nil }
        return b[from..<to].reduce(0) { $0 << 8 | UInt64($1) }
    }

    private static func float(_ b: [UInt8], _ from: Int, _ to: Int) -> Double? {
        switch to - from {
        case 4: Double(Float(bitPattern: UInt32(truncatingIfNeeded: unsigned(b, from, to) ?? 0)))
        case 8: Double(bitPattern: unsigned(b, from, to) ?? 0)
        default: nil
        }
    }
}
