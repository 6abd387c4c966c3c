import ParleyCore
import ParleyNet
import ParleyProtocol

/// The HTTP API of an account's security (`docs/protocol.md`, "Account security"): the
/// password (change, reset by SMS code), the phone number (bind, change, unbind) and
/// signing other devices out.
enum AccountSecurityRoutes {
    static func add(to routes: inout RouterBuilder<RouteAction>, services: ServerServices) {
        let accounts = services.accounts
        let delivery = services.delivery
        let registry = services.registry
        let logger = services.logger

        @Sendable func authenticate(_ request: APIRequest) async throws(ProtocolError) -> AuthenticatedSession {
            try await AccountRoutes.authenticate(request, with: accounts)
        }
        /// Closes the connections of revoked sessions, on every server of a cluster, at once,
        /// and the Jabber streams that signed in with the password (they have no session).
        @Sendable func closeConnections(of user: UserID, signedInWith sessions: [String]) {
            for id in sessions + [AuthenticatedSession.passwordSignIn] {
                registry.closeConnections(of: user, signedInWith: id)
            }
        }

        routes.add(.post, "/v1/me/password", .task { request throws(ProtocolError) in
            let session = try await authenticate(request)
            let body = try request.decodeBody(PasswordChange.self)
            let revoked = try await accounts.changePassword(of: session, current: body.current, new: body.new,
                                                            keepOtherSessions: body.keepOtherSessions ?? false,
                                                            clientAddress: request.clientAddress)
            if body.keepOtherSessions != true { closeConnections(of: session.userID, signedInWith: revoked) }
            logger.info("password changed", ["user": .string(session.userID.description), "revoked": .int(revoked.count)])
            return JSONCoding.response(.ok, SessionsRevoked(revoked: revoked.count))
        })
        routes.add(.post, "/v1/auth/password-reset/request", .task { request throws(ProtocolError) in
            let body = try request.decodeBody(SMSCodeRequest.self)
            return JSONCoding.response(.ok, try await accounts.requestPasswordReset(phone: body.phone, clientAddress: request.clientAddress))
        })
        routes.add(.post, "/v1/auth/password-reset/verify", .task { request throws(ProtocolError) in
            let body = try request.decodeBody(PasswordReset.self)
            let outcome = try await accounts.resetPassword(phone: body.phone, code: body.code, newPassword: body.newPassword)
            closeConnections(of: outcome.user, signedInWith: outcome.revokedSessions)
            logger.info("password reset", ["user": .string(outcome.user.description), "revoked": .int(outcome.revokedSessions.count)])
            return HTTPResponse(status: .noContent)
        })
        routes.add(.post, "/v1/me/phone/request", .task { request throws(ProtocolError) in
            let session = try await authenticate(request)
            let body = try request.decodeBody(SMSCodeRequest.self)
            return JSONCoding.response(.ok, try await accounts.requestPhoneBinding(of: session, phone: body.phone,
                                                                                   clientAddress: request.clientAddress))
        })
        routes.add(.post, "/v1/me/phone/verify", .task { request throws(ProtocolError) in
            let session = try await authenticate(request)
            let body = try request.decodeBody(SMSCodeVerification.self)
            let account = try await accounts.verifyPhoneBinding(of: session, phone: body.phone, code: body.code)
            delivery.deliver(.meUpdated(account), to: [session.userID], excluding: nil)
            return JSONCoding.response(.ok, account)
        })
        routes.add(.delete, "/v1/me/phone", .task { request throws(ProtocolError) in
            let session = try await authenticate(request)
            let body = try request.decodeBody(PasswordConfirmation.self)
            let account = try await accounts.unbindPhone(of: session, password: body.password, clientAddress: request.clientAddress)
            delivery.deliver(.meUpdated(account), to: [session.userID], excluding: nil)
            return JSONCoding.response(.ok, account)
        })
        let deletion = services.deletion
        routes.add(.delete, "/v1/me", .task { request throws(ProtocolError) in
            let session = try await authenticate(request)
            let body = try request.decodeBody(AccountDeletion.self)
            let ended = try await deletion.delete(session.userID, password: body.password, code: body.code,
                                                  clientAddress: request.clientAddress)
            closeConnections(of: session.userID, signedInWith: ended)
            services.exports.forget(session.userID)
            logger.info("account deleted", ["user": .string(session.userID.description)])
            return HTTPResponse(status: .noContent)
        })
        let exports = services.exports
        routes.add(.post, "/v1/me/export", .task { request throws(ProtocolError) in
            let session = try await authenticate(request)
            return JSONCoding.response(HTTPStatus(code: 202, reason: "Accepted"), exports.start(for: session.userID))
        })
        routes.add(.get, "/v1/me/export", .task { request throws(ProtocolError) in
            let session = try await authenticate(request)
            guard let (status, bytes) = try await exports.current(for: session.userID) else {
                throw ProtocolError(.notFound, "no export was started, or it expired; start one with POST /v1/me/export")
            }
            guard let bytes else { return JSONCoding.response(HTTPStatus(code: 202, reason: "Accepted"), status) }
            return HTTPResponse(status: .ok, headers: ["Content-Type": "application/zip",
                                                       "Content-Disposition": "attachment; filename=\"parley-export.zip\"",
                                                       "Cache-Control": "no-store"],
                                body: ByteChunk.of(bytes))
        })
        routes.add(.delete, "/v1/auth/sessions", .task { request throws(ProtocolError) in
            let session = try await authenticate(request)
            let revoked = try await accounts.revokeOtherSessions(of: session)
            closeConnections(of: session.userID, signedInWith: revoked)
            return JSONCoding.response(.ok, SessionsRevoked(revoked: revoked.count))
        })
    }
}
