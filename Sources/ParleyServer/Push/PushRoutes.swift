import ParleyCore
import ParleyNet
import ParleyProtocol

/// The HTTP API of push notifications (`docs/protocol.md`, "Push notifications").
enum PushRoutes {
    static func add(to routes: inout RouterBuilder<RouteAction>, services: ServerServices) {
        let accounts = services.accounts
        let registration = services.pushRegistration
        let publicKey = VAPIDPublicKey(publicKey: services.push.vapid.publicKeyText)

        @Sendable func authenticate(_ request: APIRequest) async throws(ProtocolError) -> AuthenticatedSession {
            guard let token = request.bearerToken else { throw ProtocolError(.unauthorized, "send Authorization: Bearer <token>") }
            return try await accounts.authenticate(token: token)
        }

        routes.add(.get, "/v1/push/vapid-key", .immediate { _ in JSONCoding.response(.ok, publicKey) })
        routes.add(.post, "/v1/push/subscriptions", .task { request throws(ProtocolError) in
            let session = try await authenticate(request)
            let body = try request.decodeBody(WebPushSubscriptionBody.self)
            return JSONCoding.response(.created, try await registration.subscribe(body, session: session))
        })
        routes.add(.delete, "/v1/push/subscriptions/:id", .task { request throws(ProtocolError) in
            try await registration.remove(id: request.parameters["id"] ?? "", session: try await authenticate(request))
            return HTTPResponse(status: .noContent)
        })
        routes.add(.post, "/v1/push/devices", .task { request throws(ProtocolError) in
            let session = try await authenticate(request)
            let body = try request.decodeBody(PushDeviceBody.self)
            return JSONCoding.response(.created, try await registration.register(body, session: session))
        })
        routes.add(.delete, "/v1/push/devices/:id", .task { request throws(ProtocolError) in
            try await registration.remove(id: request.parameters["id"] ?? "", session: try await authenticate(request))
            return HTTPResponse(status: .noContent)
        })
    }
}
