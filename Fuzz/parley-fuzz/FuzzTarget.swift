/// The parsers under fuzzing, by the names `make fuzz`, the corpus folders
/// (`Fuzz/corpus/<name>/`) and `PARLEY_FUZZ_TARGET` use.
enum FuzzTarget: String, CaseIterable, Sendable {
    case httpRequest = "http-request"
    case httpResponseHead = "http-response-head"
    case websocketServer = "websocket-server"
    case websocketClient = "websocket-client"
    case utf8
    case jsonFrames = "json-frames"
    case imageSniff = "image-sniff"
    case percentDecoding = "percent-decoding"
    case websocketHandshake = "websocket-handshake"
    case xmppStream = "xmpp-stream"

    /// Runs this target's harness on one input; throws the first invariant it breaks.
    func run(_ bytes: [UInt8]) throws(InvariantFailure) {
        switch self {
        case .httpRequest: try HTTPRequestHarness.run(bytes)
        case .httpResponseHead: try HTTPResponseHeadHarness.run(bytes)
        case .websocketServer: try WebSocketHarness(role: .server).run(bytes)
        case .websocketClient: try WebSocketHarness(role: .client).run(bytes)
        case .utf8: try UTF8Harness.run(bytes)
        case .jsonFrames: try JSONFramesHarness.run(bytes)
        case .imageSniff: try ImageSniffHarness.run(bytes)
        case .percentDecoding: try PercentDecodingHarness.run(bytes)
        case .websocketHandshake: try WebSocketHandshakeHarness.run(bytes)
        case .xmppStream: try XMPPStreamHarness.run(bytes)
        }
    }

    /// The names, one per line.
    static var list: String {
        allCases.map(\.rawValue).joined(separator: "\n")
    }
}
