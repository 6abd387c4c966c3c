/// One HTTP/1.1 request on its own connection (`Connection: close`), optionally over TLS:
/// for clients that must verify a server against a private CA, where the platform's HTTP
/// client cannot be told which CA to trust. The answer is read to the end of its
/// `Content-Length` (or of the connection), bounded by `maxBodyBytes`.
public final class HTTPClientExchange: ConnectionHandler {
    /// A complete answer.
    public struct Response: Sendable {
        /// The status code.
        public var status: Int
        /// The header fields.
        public var headers: HTTPHeaders
        /// The body.
        public var body: [UInt8]
    }

    /// Reports the outcome once; called on the connection's loop.
    public typealias Completion = @Sendable (Result<Response, HTTPClientExchangeError>) -> Void

    private let request: [UInt8]
    private let body: [UInt8]
    private let maxBodyBytes: Int
    private var completion: Completion?
    private let decoder = HTTPResponseHeadDecoder()
    private var head: (status: Int, headers: HTTPHeaders, length: Int?)?
    private var received: [UInt8] = []

    private init(request: [UInt8], body: [UInt8], maxBodyBytes: Int, completion: @escaping Completion) {
        self.request = request
        self.body = body
        self.maxBodyBytes = maxBodyBytes
        self.completion = completion
    }

    /// Sends `head` and `body` to `address` (with TLS when `tls` is given, checking the
    /// server's certificate against `serverName`). Must be called on `loop`.
    public static func send(_ head: HTTPRequestHead, body: [UInt8] = [], to address: SocketAddress, on loop: EventLoop,
                            tls: TLSContext? = nil, serverName: String? = nil, maxBodyBytes: Int = 16 << 20,
                            timeout: Duration = .seconds(30), completion: @escaping Completion) {
        var head = head
        head.headers.replaceOrAdd(name: "Connection", value: "close")
        head.headers.replaceOrAdd(name: "Content-Length", value: String(body.count))
        let exchange = HTTPClientExchange(request: HTTPRequestEncoder.encodeHead(head), body: body,
                                          maxBodyBytes: maxBodyBytes, completion: completion)
        do {
            // The connection keeps its handler (this exchange) until it closes.
            _ = try TCPConnection.connect(to: address, on: loop, options: TCPConnectionOptions(idleTimeout: timeout),
                                          tls: tls, serverName: serverName, handler: exchange)
        } catch {
            exchange.finish(.failure(HTTPClientExchangeError("cannot connect to \(address): \(error)")))
        }
    }

    public func connectionDidConnect(_ connection: TCPConnection) {
        connection.write(ByteChunk.of(request))
        if !body.isEmpty { connection.write(ByteChunk.of(body)) }
    }

    public func connection(_ connection: TCPConnection, didRead bytes: UnsafeRawBufferPointer) {
        if head == nil {
            switch decoder.feed(bytes) {
            case .needMoreData:
                return
            case .failure(let error):
                finish(.failure(HTTPClientExchangeError("bad HTTP answer: \(error.reason)")))
                connection.closeNow()
                return
            case .head(let status, let headers, let leftover):
                let length = headers[first: "Content-Length"].flatMap { Int($0) }
                head = (status, headers, length)
                received = leftover
            }
        } else {
            received.append(contentsOf: bytes)
        }
        guard received.count <= maxBodyBytes else {
            finish(.failure(HTTPClientExchangeError("the answer is larger than \(maxBodyBytes) bytes")))
            connection.closeNow()
            return
        }
        if let head, let length = head.length, received.count >= length {
            finish(.success(Response(status: head.status, headers: head.headers, body: Array(received.prefix(length)))))
            connection.close()
        }
    }

    public func connection(_ connection: TCPConnection, didCloseWith reason: ConnectionCloseReason) {
        if let head, head.length == nil {
            finish(.success(Response(status: head.status, headers: head.headers, body: received)))
        } else if case .tls(let error) = reason {
            finish(.failure(HTTPClientExchangeError("TLS failed: \(error)")))
        } else {
            finish(.failure(HTTPClientExchangeError("the connection closed before the answer was complete (\(reason))")))
        }
    }

    private func finish(_ result: Result<Response, HTTPClientExchangeError>) {
        guard let completion else { return }
        self.completion = nil
        completion(result)
    }
}
