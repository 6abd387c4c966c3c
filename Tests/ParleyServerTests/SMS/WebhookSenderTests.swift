import Foundation
import ParleyNet
import ParleySync
import Testing
@testable import ParleyServer

/// A stand-in SMS gateway: ParleyNet's HTTP server recording what is POSTed to it.
final class GatewayResponder: HTTPResponder {
    let bodies = PThreadMutex<[String]>([])
    let status: HTTPStatus
    init(status: HTTPStatus) { self.status = status }
    func respond(to request: HTTPRequest, context: HTTPRequestContext) {
        bodies.withLock { $0.append(String(decoding: request.body, as: UTF8.self)) }
        context.respond(HTTPResponse(status: status))
    }
}

@Suite struct WebhookSenderTests {
    @Test func postsTheCodeAsJSON() async throws {
        let group = try EventLoopGroup(loopCount: 1)
        defer { group.shutdown() }
        let gateway = GatewayResponder(status: .ok)
        let server = try HTTPServer(group: group, address: SocketAddress(host: "127.0.0.1", port: 0), responder: gateway)
        defer { server.shutdown(timeout: .seconds(1)) }
        let sender = WebhookSender(url: URL(string: "http://127.0.0.1:\(server.localAddress.port)/sms")!, timeout: 5)
        try await sender.send(phone: "+8613800138000", code: "123456")
        let body = try #require(gateway.bodies.withLock { $0.first })
        let object = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
        #expect(object?["phone"] as? String == "+8613800138000")
        #expect(object?["code"] as? String == "123456")
        #expect((object?["at"] as? Int ?? 0) > 1_700_000_000_000)
    }

    @Test func gatewayErrorsAreReported() async throws {
        let group = try EventLoopGroup(loopCount: 1)
        defer { group.shutdown() }
        let server = try HTTPServer(group: group, address: SocketAddress(host: "127.0.0.1", port: 0),
                                    responder: GatewayResponder(status: .internalServerError))
        defer { server.shutdown(timeout: .seconds(1)) }
        let sender = WebhookSender(url: URL(string: "http://127.0.0.1:\(server.localAddress.port)/sms")!, timeout: 5)
        await #expect(throws: SMSDeliveryError.self) { try await sender.send(phone: "+8613800138000", code: "123456") }
    }

    @Test func serverSurfacesGatewayFailureAsSMSDeliveryFailed() async throws {
        let group = try EventLoopGroup(loopCount: 1)
        defer { group.shutdown() }
        let gateway = try HTTPServer(group: group, address: SocketAddress(host: "127.0.0.1", port: 0),
                                     responder: GatewayResponder(status: .serviceUnavailable))
        defer { gateway.shutdown(timeout: .seconds(1)) }
        let server = try TestServer {
            $0.smsSender = "webhook"
            $0.smsWebhookURL = "http://127.0.0.1:\(gateway.localAddress.port)/sms"
        }
        defer { server.stop() }
        let reply = try await server.request("POST", "/v1/auth/sms/request", json: ["phone": "13800138000"])
        #expect(reply.status == 502)
        #expect(reply.errorCode == "sms_delivery_failed")
    }
}
