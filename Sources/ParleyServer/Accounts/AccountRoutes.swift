import Foundation
import ParleyCore
import ParleyNet
import ParleyProtocol

/// The HTTP API of accounts, profiles and media (`docs/protocol.md`).
enum AccountRoutes {
    /// Resolves the bearer token of a request to its session (recording the address it
    /// came from in the device list).
    @Sendable static func authenticate(_ request: APIRequest, with accounts: AccountService) async throws(ProtocolError) -> AuthenticatedSession {
        guard let token = request.bearerToken else {
            throw ProtocolError(.unauthorized, "send Authorization: Bearer <token>")
        }
        return try await accounts.authenticate(token: token, clientAddress: request.clientAddress)
    }

    static func add(to routes: inout RouterBuilder<RouteAction>, services: ServerServices) {
        let accounts = services.accounts
        let media = services.media
        let delivery = services.delivery
        let conversations = services.conversations
        let registry = services.registry

        /// Closes the WebSockets signed in with an ended sign-in session, through the registry so
        /// those connected to other servers of a cluster close too.
        @Sendable func closeWebSockets(of sessionID: String, user: UserID) {
            registry.closeConnections(of: user, signedInWith: sessionID)
        }

        @Sendable func authenticate(_ request: APIRequest) async throws(ProtocolError) -> AuthenticatedSession {
            try await AccountRoutes.authenticate(request, with: accounts)
        }

        routes.add(.post, "/v1/auth/register", .task { request throws(ProtocolError) in
            let body = try request.decodeBody(Credentials.self)
            let result = try await accounts.register(username: body.username, password: body.password, userAgent: request.userAgent,
                                                    clientAddress: request.clientAddress, deviceName: body.deviceName)
            services.logger.info("registered", ["user": .string(result.user.profile.id.description)])
            return JSONCoding.response(.created, result)
        })
        routes.add(.post, "/v1/auth/login", .task { request throws(ProtocolError) in
            let body = try request.decodeBody(Credentials.self)
            return JSONCoding.response(.ok, try await accounts.login(username: body.username, password: body.password,
                                                                     userAgent: request.userAgent, clientAddress: request.clientAddress,
                                                                     deviceName: body.deviceName))
        })
        routes.add(.post, "/v1/auth/sms/request", .task { request throws(ProtocolError) in
            let body = try request.decodeBody(SMSCodeRequest.self)
            return JSONCoding.response(.ok, try await accounts.requestSMSCode(phone: body.phone, clientAddress: request.clientAddress))
        })
        routes.add(.post, "/v1/auth/sms/verify", .task { request throws(ProtocolError) in
            let body = try request.decodeBody(SMSCodeVerification.self)
            return JSONCoding.response(.ok, try await accounts.verifySMSCode(phone: body.phone, code: body.code,
                                                                             userAgent: request.userAgent,
                                                                             clientAddress: request.clientAddress,
                                                                             deviceName: body.deviceName))
        })
        routes.add(.post, "/v1/auth/logout", .task { request throws(ProtocolError) in
            let session = try await authenticate(request)
            try await accounts.logout(session)
            closeWebSockets(of: session.sessionID, user: session.userID)
            return HTTPResponse(status: .noContent)
        })
        routes.add(.get, "/v1/auth/sessions", .task { request throws(ProtocolError) in
            JSONCoding.response(.ok, try await accounts.sessions(of: try await authenticate(request)))
        })
        routes.add(.delete, "/v1/auth/sessions/:id", .task { request throws(ProtocolError) in
            let session = try await authenticate(request)
            let id = request.parameters["id"] ?? ""
            try await accounts.revokeSession(id: id, of: session)
            closeWebSockets(of: id, user: session.userID)
            return HTTPResponse(status: .noContent)
        })
        routes.add(.get, "/v1/me", .task { request throws(ProtocolError) in
            JSONCoding.response(.ok, try await accounts.account(of: try await authenticate(request).userID))
        })
        routes.add(.patch, "/v1/me", .task { request throws(ProtocolError) in
            let session = try await authenticate(request)
            let update = try request.decodeBody(ProfileUpdate.self)
            // Privacy choices may come in the same body (docs/protocol.md, "Receipts and
            // typing"): read before anything is written, kept after the profile's checks pass.
            let privacy = try request.decodeBody(PrivacyPatch.self).privacy
            let account = try await accounts.updateProfile(of: session.userID, with: update)
            if let privacy { _ = try await conversations.setPrivacy(of: session.userID, privacy) }
            delivery.deliver(.meUpdated(account), to: [session.userID], excluding: nil)
            return JSONCoding.response(.ok, account)
        })
        routes.add(.get, "/v1/users/by-name/:username", .task { request throws(ProtocolError) in
            _ = try await authenticate(request)
            return JSONCoding.response(.ok, try await accounts.profile(username: request.parameters["username"] ?? ""))
        })
        routes.add(.get, "/v1/users/:id", .task { request throws(ProtocolError) in
            _ = try await authenticate(request)
            guard let id = UserID(string: request.parameters["id"] ?? "") else {
                throw ProtocolError(.notFound, "no user with that id")
            }
            return JSONCoding.response(.ok, try await accounts.profile(id: id))
        })
        AccountSecurityRoutes.add(to: &routes, services: services)
        routes.add(.post, "/v1/media", .task { request throws(ProtocolError) in
            let session = try await authenticate(request)
            return JSONCoding.response(.created, try await media.upload(request.http.body, owner: session.userID))
        })
        // An upload slot's bytes (XMPP's HTTP upload, XEP-0363), streamed to a temporary file
        // like `POST /v1/files`: the slot's token is the authority, so no session; the file
        // gets the link the slot announced.
        let uploads = services.uploads
        routes.add(.put, IncomingUploads.slotsPrefix + ":token", .task { request throws(ProtocolError) in
            guard let body = request.http.bodyFile, let path = body.claim() else {
                throw ProtocolError(.badRequest, "the upload's body is missing")
            }
            do throws(ProtocolError) {
                return JSONCoding.response(.created, try await uploads.upload(token: request.parameters["token"] ?? "", path: path,
                                                                              size: body.size))
            } catch {
                unlink(path)
                throw error
            }
        })
        FileRoutes.add(to: &routes, services: services)
    }
}
