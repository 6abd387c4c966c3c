/// Reads the server side of NATS's text protocol from a byte stream (WebSocket frames may
/// split or join protocol lines anywhere): `INFO {…}`, `MSG <subject> <sid> [reply] <n>` and
/// its payload, `PING`, `PONG`, `+OK`, `-ERR '…'`. Written for the bench from the protocol's
/// published description; only what a subscriber sees.
struct NATSParser {
    /// One thing the server said.
    enum Event: Equatable {
        case info
        case message(subject: String, payload: [UInt8])
        case ping
        case pong
        case ok
        case error(String)
    }

    /// Why the stream cannot be read further.
    struct ParseError: Error, Equatable, CustomStringConvertible {
        let description: String
    }

    private var buffer: [UInt8] = []
    private var offset = 0
    /// A `MSG` line has been read and its payload of this many bytes (and CRLF) is awaited.
    private var pendingMessage: (subject: String, count: Int)?
    /// Longest control line accepted (NATS's own default is 4 KiB).
    static let maxLine = 64 * 1024

    /// Takes in `bytes` and returns every complete event in them.
    mutating func feed(_ bytes: some Collection<UInt8>) throws(ParseError) -> [Event] {
        buffer.append(contentsOf: bytes)
        var events: [Event] = []
        while true {
            if let message = pendingMessage {
                guard buffer.count - offset >= message.count + 2 else { break }
                let end = offset + message.count
                guard buffer[end] == 13, buffer[end + 1] == 10 else { throw ParseError(description: "MSG payload not followed by CRLF") }
                events.append(.message(subject: message.subject, payload: Array(buffer[offset..<end])))
                offset = end + 2
                pendingMessage = nil
                continue
            }
            guard let lineEnd = findCRLF() else {
                if buffer.count - offset > Self.maxLine { throw ParseError(description: "control line longer than \(Self.maxLine) bytes") }
                break
            }
            let line = buffer[offset..<lineEnd]
            offset = lineEnd + 2
            if let event = try parseLine(line) { events.append(event) }
        }
        // Compact once the consumed part dominates, so the buffer does not grow without end.
        if offset > 0 && offset * 2 >= buffer.count {
            buffer.removeFirst(offset)
            offset = 0
        }
        return events
    }

    private func findCRLF() -> Int? {
        var index = offset
        while index + 1 < buffer.count {
            if buffer[index] == 13 && buffer[index + 1] == 10 { return index }
            index += 1
        }
        return nil
    }

    private mutating func parseLine(_ line: ArraySlice<UInt8>) throws(ParseError) -> Event? {
        let words = line.split(whereSeparator: { $0 == 32 || $0 == 9 })
        guard let first = words.first else { throw ParseError(description: "empty control line") }
        let verb = String(decoding: first, as: UTF8.self).uppercased()
        switch verb {
        case "MSG":
            // MSG <subject> <sid> [reply-to] <#bytes>
            guard words.count == 4 || words.count == 5,
                  let count = Int(String(decoding: words[words.count - 1], as: UTF8.self)), count >= 0 else {
                throw ParseError(description: "bad MSG line: \(String(decoding: line, as: UTF8.self))")
            }
            pendingMessage = (String(decoding: words[1], as: UTF8.self), count)
            return nil
        case "PING": return .ping
        case "PONG": return .pong
        case "+OK": return .ok
        case "INFO": return .info
        case "-ERR":
            let text = String(decoding: line.dropFirst(4), as: UTF8.self)
            return .error(text.trimmingSpacesAndQuotes())
        default:
            throw ParseError(description: "unknown operation '\(verb)'")
        }
    }
}

extension String {
    /// ` 'Unknown Protocol Operation'` → `Unknown Protocol Operation`.
    func trimmingSpacesAndQuotes() -> String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "'" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "'" { slice.removeLast() }
        return String(slice)
    }
}
