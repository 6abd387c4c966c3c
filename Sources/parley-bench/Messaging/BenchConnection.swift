import Foundation
import ParleyProtocol
import ParleyNet

/// One load client's WebSocket in any `Dialect`: sends setup requests and measured messages,
/// and turns what arrives into `Incoming` for the load of its loop.
///
/// Unlike the echo load (one delegate for all sockets), every client here has its own object:
/// a Parley client has an identity (user, token, conversation) and requests in flight.
final class BenchConnection: WebSocketDelegate, @unchecked Sendable {
    // Invariant for `@unchecked Sendable`: every `var` is touched only on `loop`; other
    // threads reach a connection through `loop.execute` (see `ConnectionSet.perform`).

    /// The loop this client lives on.
    let loop: EventLoop
    let dialect: Dialect
    /// The client's number in its scenario.
    let index: Int
    /// Parley: the user's id and session token (from registration).
    var userID = ""
    var token = ""
    /// Where this client's measured messages go: a Parley conversation id or a topic.
    var route = ""
    /// Measured messages this client has sent (unique client ids for Parley).
    private var sendCount = 0
    /// The server id of this connection's last acknowledged message (message actions act on it).
    private var lastMessageID: String?
    /// Whether this connection's reaction is on `lastMessageID` (reactions alternate on, off).
    private var reacted = false
    /// Whether the next action is an edit (edits and reactions alternate).
    private var editNext = true

    private(set) var socket: WebSocketConnection?
    /// Receives everything measured; set on the loop.
    var onIncoming: ((Incoming) -> Void)?
    /// Answers every delivered `message.new` with `conversation.read` up to its seq, as a
    /// client with the chat open does (`direct --mark-read`).
    var markRead = false
    /// Events the load does not measure (typing, receipts, presence), as they arrive.
    var onEvent: ((UnsafeRawBufferPointer) -> Void)?
    /// The answer to a signal sent without waiting (`ParleyFrames.signal`): whether it was ok.
    var onSignalReply: ((Bool) -> Void)?
    /// Open, failure and close notifications for the connection set.
    var onOpen: ((BenchConnection) -> Void)?
    var onFailure: ((BenchConnection, String) -> Void)?
    var onClose: ((BenchConnection, WebSocketCloseCode, String) -> Void)?

    private var nats = NATSParser()
    private var pendingReplies: [String: (Bool, [UInt8]) -> Void] = [:]
    private var nextRequest = 0
    /// NATS and relay: completions waiting for the server's confirmation, in order.
    private var pendingConfirmations: [(Bool) -> Void] = []

    init(loop: EventLoop, dialect: Dialect, index: Int) {
        self.loop = loop
        self.dialect = dialect
        self.index = index
    }

    var isOpen: Bool { socket?.isOpen == true }

    /// Starts connecting (over TLS with `tls`). Call on the loop.
    func connect(to target: SocketAddress, path: String, source: SocketAddress?, tls: TLSContext? = nil) throws(SystemError) {
        try WebSocketClient.connect(to: target, path: path, localAddress: source, on: loop, tls: tls, delegate: self)
    }

    /// Closes the socket politely. Call on the loop.
    func close() {
        socket?.close()
    }

    // MARK: Setup (call on the loop)

    /// Parley: sends a set-up request (a string id, so it cannot be taken for a measured
    /// send's answer); `completion` gets its result, or why it failed.
    func request<O: APIOperation>(_ operation: O.Type, _ parameters: O.Parameters,
                                  completion: @escaping (Result<O.Result, BenchError>) -> Void) {
        guard let socket, socket.isOpen else {
            completion(.failure(.failed("not_connected")))
            return
        }
        nextRequest += 1
        let id = "s\(nextRequest)"
        guard let frame = FrameWriter.request(operation, id: .string(id), parameters) else {
            completion(.failure(.failed("cannot encode \(O.name)")))
            return
        }
        pendingReplies[id] = { ok, reply in
            let data = Data(reply)
            guard case .response(_, let result)? = FrameReader.serverFrame(data) else {
                return completion(.failure(.failed(ok ? "unreadable answer" : "closed")))
            }
            switch result {
            case .success(let range):
                do {
                    completion(.success(try FrameReader.data(O.Result.self, in: data, range)))
                } catch {
                    completion(.failure(.failed("\(O.name): unreadable result")))
                }
            case .failure(let error):
                completion(.failure(.failed("\(O.name): \(error.code.rawValue)")))
            }
        }
        socket.send(text: String(decoding: frame, as: UTF8.self))
    }

    /// Relay and NATS: subscribes to `topic`; `completion` runs once the server has confirmed
    /// (relay: `A 0`; NATS: the `PONG` after `CONNECT`/`SUB`/`PING`).
    func subscribe(_ topic: String, completion: @escaping (Bool) -> Void) {
        guard let socket, socket.isOpen else { return completion(false) }
        switch dialect {
        case .parley:
            preconditionFailure("Parley clients are members of conversations, not subscribers")
        case .relay:
            socket.send(text: RelayFrames.subscribe(topic))
        case .nats:
            socket.send(text: NATSFrames.connect + NATSFrames.subscribe(topic, sid: 1) + NATSFrames.ping)
        }
        pendingConfirmations.append(completion)
    }

    // MARK: Measured sends (call on the loop)

    /// Sends one measured message of `size` bytes stamped `now` in `step` along `route`;
    /// false if the socket is closed.
    func sendMeasured(now: UInt64, step: Int, size: Int, actionEvery: Int = 0) -> Bool {
        guard let socket, socket.isOpen else { return false }
        let text = MessageStamp.text(sentAt: now, step: step, size: size)
        sendCount += 1
        switch dialect {
        case .parley:
            if actionEvery > 0, sendCount % actionEvery == 0, let message = lastMessageID {
                // The action's client id is its stamp (unique: the time and this connection's
                // count), which the peer's `message.updated` carries back.
                let clientID = MessageStamp.text(sentAt: now, step: step, size: MessageStamp.headerSize) + "\(index)-\(sendCount)"
                if editNext {
                    socket.send(text: ParleyFrames.edit(sentAt: now, conversation: route, message: message, clientID: clientID, text: text))
                } else {
                    socket.send(text: ParleyFrames.react(sentAt: now, conversation: route, message: message, clientID: clientID,
                                                         removing: reacted))
                    reacted.toggle()
                }
                editNext.toggle()
                return true
            }
            socket.send(text: ParleyFrames.send(sentAt: now, conversation: route, clientID: "b\(index)-\(sendCount)", text: text))
        case .relay:
            socket.send(text: RelayFrames.publish(id: now, topic: route, payload: text))
        case .nats:
            socket.send(text: NATSFrames.publish(route, payload: text))
        }
        return true
    }

    /// Sends a frame whose answer nobody waits for (a signal); false if the socket is closed.
    func sendSignal(_ frame: String) -> Bool {
        guard let socket, socket.isOpen else { return false }
        socket.send(text: frame)
        return true
    }

    // MARK: WebSocketDelegate

    func webSocketDidOpen(_ socket: WebSocketConnection) {
        self.socket = socket
        onOpen?(self)
    }

    func webSocketDidFailToConnect(reason: String) {
        onFailure?(self, reason)
    }

    func webSocket(_ socket: WebSocketConnection, didReceiveUTF8 bytes: UnsafeRawBufferPointer) {
        // The common case: a whole frame read in place, no copy.
        receive(bytes)
    }

    func webSocket(_ socket: WebSocketConnection, didReceiveText text: String) {
        // A message that arrived in pieces, reassembled by the decoder.
        var text = text
        text.withUTF8 { buffer in receive(UnsafeRawBufferPointer(buffer)) }
    }

    func webSocket(_ socket: WebSocketConnection, didReceiveBinary bytes: [UInt8]) {
        bytes.withUnsafeBytes { receive($0) }
    }

    func webSocketDidClose(_ socket: WebSocketConnection, code: WebSocketCloseCode, reason: String) {
        self.socket = nil
        let replies = pendingReplies
        pendingReplies = [:]
        for (_, completion) in replies { completion(false, Array("{\"error\":{\"code\":\"closed\"}}".utf8)) }
        let confirmations = pendingConfirmations
        pendingConfirmations = []
        for completion in confirmations { completion(false) }
        onClose?(self, code, reason)
    }

    private func receive(_ bytes: UnsafeRawBufferPointer) {
        switch dialect {
        case .parley:
            let incoming = ParleyFrames.parse(bytes)
            if case .reply(let id, let ok) = incoming {
                if let completion = pendingReplies.removeValue(forKey: id) {
                    completion(ok, Array(bytes))
                } else {
                    onSignalReply?(ok)
                }
                return
            }
            if case .ignored = incoming { onEvent?(bytes) }
            if markRead, case .delivery = incoming, let seq = ParleyFrames.newMessageSeq(bytes),
               let frame = ParleyFrames.signal(Op.ConversationRead.self, id: "read",
                                               ReadParameters(conversationId: ConversationID(string: route) ?? ConversationID(0), seq: seq)) {
                socket?.send(text: frame)
            }
            if case .ack = incoming, let id = ParleyFrames.sentMessageID(bytes), id != lastMessageID {
                lastMessageID = id
                reacted = false
            }
            onIncoming?(incoming)
        case .relay:
            let incoming = RelayFrames.parse(bytes)
            if case .ack(0) = incoming, !pendingConfirmations.isEmpty {
                pendingConfirmations.removeFirst()(true)
                return
            }
            onIncoming?(incoming)
        case .nats:
            do {
                for event in try nats.feed(bytes) {
                    switch event {
                    case .message(_, let payload):
                        let incoming = payload.withUnsafeBytes { raw -> Incoming in
                            guard let stamp = MessageStamp.read(raw, at: 0) else { return .malformed("not a stamped payload") }
                            return .delivery(sentAt: stamp.sentAt, step: stamp.step)
                        }
                        onIncoming?(incoming)
                    case .ping:
                        socket?.send(text: NATSFrames.pong)
                    case .pong:
                        if !pendingConfirmations.isEmpty { pendingConfirmations.removeFirst()(true) }
                    case .error(let text):
                        if !pendingConfirmations.isEmpty { pendingConfirmations.removeFirst()(false) }
                        onIncoming?(.refused("NATS: \(text)"))
                    case .info, .ok:
                        break
                    }
                }
            } catch {
                onIncoming?(.malformed("NATS: \(error)"))
                socket?.close(code: .protocolError, reason: "unreadable NATS stream")
            }
        }
    }
}
