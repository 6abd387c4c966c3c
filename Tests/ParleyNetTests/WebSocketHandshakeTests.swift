import Testing
@testable import ParleyNet

@Suite struct WebSocketHandshakeTests {
    private static let key = "dGhlIHNhbXBsZSBub25jZQ=="

    private func request(method: HTTPMethod = .get, version: HTTPVersion = .http1_1,
                         removing removed: [String] = [], replacing: [(String, String)] = [],
                         adding: [(String, String)] = []) -> HTTPRequestHead {
        var headers: HTTPHeaders = [
            "Host": "chat.example.com",
            "Upgrade": "websocket",
            "Connection": "Upgrade",
            "Sec-WebSocket-Key": Self.key,
            "Sec-WebSocket-Version": "13",
            "Origin": "https://chat.example.com",
        ]
        for name in removed { headers.remove(name: name) }
        for (name, value) in replacing { headers.replaceOrAdd(name: name, value: value) }
        for (name, value) in adding { headers.add(name: name, value: value) }
        return HTTPRequestHead(method: method, uri: "/ws?room=1", version: version, headers: headers)
    }

    private func refusal(_ head: HTTPRequestHead, policy: WebSocketOriginPolicy = .sameOrigin) -> WebSocketHandshakeError? {
        if case .failure(let error) = WebSocketHandshake.validate(request: head, originPolicy: policy) { return error }
        return nil
    }

    @Test func acceptValueMatchesRFCExample() {
        #expect(WebSocketHandshake.acceptValue(forKey: Self.key) == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func validRequestGets101() throws {
        let response = try WebSocketHandshake.validate(request: request(), originPolicy: .sameOrigin).get()
        #expect(response.status == .switchingProtocols)
        #expect(response.headers[first: "Upgrade"] == "websocket")
        #expect(response.headers[first: "Connection"] == "Upgrade")
        #expect(response.headers[first: "Sec-WebSocket-Accept"] == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        #expect(response.body == nil)
    }

    @Test func tokensAreMatchedWithoutCaseAndInLists() {
        let head = request(replacing: [("Upgrade", "WebSocket"), ("Connection", "keep-alive, UPGRADE")],
                           adding: [])
        #expect(refusal(head) == nil)
    }

    @Test func laterHTTPVersionsAreAccepted() {
        #expect(refusal(request(version: HTTPVersion(major: 2, minor: 0))) == nil)
    }

    @Test func nonGetIs405() {
        let error = refusal(request(method: .post))
        #expect(error?.status == .methodNotAllowed)
        #expect(error?.response.headers[first: "Allow"] == "GET")
    }

    @Test func http10Is400() {
        #expect(refusal(request(version: .http1_0))?.status == .badRequest)
    }

    @Test func missingOrWrongUpgradeIs400() {
        #expect(refusal(request(removing: ["Upgrade"]))?.status == .badRequest)
        #expect(refusal(request(replacing: [("Upgrade", "h2c")]))?.status == .badRequest)
    }

    @Test func missingUpgradeConnectionTokenIs400() {
        #expect(refusal(request(removing: ["Connection"]))?.status == .badRequest)
        #expect(refusal(request(replacing: [("Connection", "keep-alive")]))?.status == .badRequest)
    }

    @Test func missingHostIs400() {
        #expect(refusal(request(removing: ["Host"]))?.status == .badRequest)
    }

    @Test func wrongVersionIs426WithVersionHeader() {
        for headers in [[("Sec-WebSocket-Version", "8")], [("Sec-WebSocket-Version", "13, 8")]] {
            let error = refusal(request(replacing: headers))
            #expect(error?.status == .upgradeRequired)
            #expect(error?.response.status.code == 426)
            #expect(error?.response.headers[first: "Sec-WebSocket-Version"] == "13")
        }
        #expect(refusal(request(removing: ["Sec-WebSocket-Version"]))?.status == .upgradeRequired)
    }

    @Test func badKeyIs400() {
        let badKeys = ["", "not base64!", "AAAAAAAAAAAAAAAAAAAA", Base64.encode([UInt8](repeating: 1, count: 15)),
                       Base64.encode([UInt8](repeating: 1, count: 17)), "dGhlIHNhbXBsZSBub25jZQ"]
        for key in badKeys {
            #expect(refusal(request(replacing: [("Sec-WebSocket-Key", key)]))?.status == .badRequest, "\(key)")
        }
        #expect(refusal(request(removing: ["Sec-WebSocket-Key"]))?.status == .badRequest)
        #expect(refusal(request(adding: [("Sec-WebSocket-Key", Self.key)]))?.status == .badRequest)
    }

    @Test func refusalResponseCarriesTheReason() {
        let error = refusal(request(removing: ["Sec-WebSocket-Key"]))
        #expect(error?.response.body.map { String(decoding: $0.bytes, as: UTF8.self) } == (error?.reason ?? "") + "\n")
        #expect(error?.response.headers[first: "Content-Type"] == "text/plain; charset=utf-8")
    }

    @Test func noOriginIsAllowedUnderEveryPolicy() {
        for policy: WebSocketOriginPolicy in [.allowAny, .sameOrigin, .allowList(["https://other.example"])] {
            #expect(refusal(request(removing: ["Origin"]), policy: policy) == nil)
        }
    }

    @Test func sameOriginPolicy() {
        #expect(refusal(request(replacing: [("Origin", "https://evil.example")]))?.status == .forbidden)
        #expect(refusal(request(replacing: [("Origin", "HTTPS://Chat.Example.COM")])) == nil)
        // The default port of the origin's scheme equals an explicit one in Host.
        #expect(refusal(request(replacing: [("Host", "chat.example.com:443")])) == nil)
        #expect(refusal(request(replacing: [("Host", "chat.example.com:8443")]))?.status == .forbidden)
        #expect(refusal(request(replacing: [("Host", "localhost:8080"), ("Origin", "http://localhost:8080")])) == nil)
        #expect(refusal(request(replacing: [("Host", "localhost:8080"), ("Origin", "http://localhost:8081")]))?.status == .forbidden)
        #expect(refusal(request(replacing: [("Host", "[::1]:8080"), ("Origin", "http://[::1]:8080")])) == nil)
        #expect(refusal(request(replacing: [("Origin", "null")]))?.status == .forbidden)
        #expect(refusal(request(adding: [("Origin", "https://chat.example.com")]))?.status == .badRequest)
    }

    @Test func allowListPolicy() {
        let policy = WebSocketOriginPolicy.allowList(["https://app.example.com", "http://localhost:3000", "https://alt.example:443"])
        func status(_ origin: String) -> Int? {
            refusal(request(replacing: [("Origin", origin)]), policy: policy)?.status.code
        }
        #expect(status("https://app.example.com") == nil)
        #expect(status("HTTPS://APP.EXAMPLE.COM") == nil)
        #expect(status("https://app.example.com:443") == nil)
        #expect(status("http://localhost:3000") == nil)
        #expect(status("https://alt.example") == nil)
        #expect(status("http://app.example.com") == 403)
        #expect(status("https://app.example.com:8443") == 403)
        #expect(status("https://app.example.com.evil.example") == 403)
        #expect(status("https://chat.example.com") == 403)
        #expect(status("null") == 403)
    }

    @Test func allowAnyPolicy() {
        #expect(refusal(request(replacing: [("Origin", "https://anywhere.example")]), policy: .allowAny) == nil)
    }

    // MARK: - Client

    @Test func clientRequestIsAcceptedByTheServer() throws {
        let (head, key) = WebSocketHandshake.clientRequest(path: "/ws", host: "chat.example.com",
                                                           origin: "https://chat.example.com",
                                                           headers: ["Cookie": "session=abc"])
        #expect(head.method == .get)
        #expect(head.uri == "/ws")
        #expect(head.version == .http1_1)
        #expect(head.headers[first: "Sec-WebSocket-Key"] == key)
        #expect(head.headers[first: "Cookie"] == "session=abc")
        #expect(Base64.decode(key)?.count == 16)
        let response = try WebSocketHandshake.validate(request: head, originPolicy: .sameOrigin).get()
        let checked = WebSocketHandshake.validateResponse(status: response.status, headers: response.headers, key: key)
        #expect((try? checked.get()) != nil)
    }

    @Test func clientKeysAreFresh() {
        let first = WebSocketHandshake.clientRequest(path: "/", host: "h").key
        let second = WebSocketHandshake.clientRequest(path: "/", host: "h").key
        #expect(first != second)
    }

    @Test func clientRejectsBadResponses() {
        let good: HTTPHeaders = ["Upgrade": "websocket", "Connection": "Upgrade",
                                 "Sec-WebSocket-Accept": "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="]
        func check(_ headers: HTTPHeaders, status: HTTPStatus = .switchingProtocols, requested: [String] = [])
            -> WebSocketClientHandshakeError? {
            if case .failure(let error) = WebSocketHandshake.validateResponse(status: status, headers: headers, key: Self.key,
                                                                              requestedProtocols: requested) {
                return error
            }
            return nil
        }
        func with(_ change: (inout HTTPHeaders) -> Void) -> HTTPHeaders {
            var headers = good
            change(&headers)
            return headers
        }
        #expect(check(good) == nil)
        #expect(check(good, status: .ok) == .unexpectedStatus(.ok))
        #expect(check(with { $0.remove(name: "Upgrade") }) == .missingUpgradeToken)
        #expect(check(with { $0.replaceOrAdd(name: "Connection", value: "close") }) == .missingConnectionToken)
        #expect(check(with { $0.remove(name: "Sec-WebSocket-Accept") }) == .invalidAccept)
        #expect(check(with { $0.replaceOrAdd(name: "Sec-WebSocket-Accept", value: "s3pPLMBiTxaQ9kYGzzhZRbK+xOo") }) == .invalidAccept)
        #expect(check(with { $0.add(name: "Sec-WebSocket-Extensions", value: "permessage-deflate") })
                == .unexpectedExtension("permessage-deflate"))
        #expect(check(with { $0.add(name: "Sec-WebSocket-Protocol", value: "chat") }) == .unexpectedProtocol("chat"))
        #expect(check(with { $0.add(name: "Sec-WebSocket-Protocol", value: "chat") }, requested: ["chat"]) == nil)
    }
}
