import Foundation
import ParleyCore
import ParleyNet
import ParleyProtocol

/// The admin API (docs/protocol.md, "Admin API"): `/v1/admin/…`, JSON over HTTP, for a
/// signed-in account with the admin role; anyone else gets 403 `not_admin`. Each handler is
/// one call into `AdminService`, which writes the audit log.
enum AdminRoutes {
    static func add(to routes: inout RouterBuilder<RouteAction>, services: ServerServices,
                    connections: @escaping @Sendable () -> Int) {
        let accounts = services.accounts
        let admin = services.admin
        let logger = services.logger

        /// The signed-in administrator, or the error for anyone else.
        @Sendable func administrator(_ request: APIRequest) async throws(ProtocolError) -> UserID {
            let session = try await AccountRoutes.authenticate(request, with: accounts)
            try await admin.requireAdmin(session.userID)
            return session.userID
        }
        /// The route for `path`: the administrator checked, the action logged.
        func route(_ method: HTTPMethod, _ path: String, _ action: String? = nil,
                   _ handler: @escaping @Sendable (APIRequest, UserID) async throws(ProtocolError) -> HTTPResponse) {
            routes.add(method, path, .task { request throws(ProtocolError) in
                let user = try await administrator(request)
                let response = try await handler(request, user)
                if let action {
                    logger.info("admin action", ["admin": .string(user.description), "action": .string(action)])
                }
                return response
            })
        }

        routes.add(.get, "/v1/admin/me", .task { request throws(ProtocolError) in
            let session = try await AccountRoutes.authenticate(request, with: accounts)
            return JSONCoding.response(.ok, AdminStatus(admin: try await admin.isAdmin(session.userID)))
        })

        // Users
        route(.get, "/v1/admin/users") { request, _ throws(ProtocolError) in
            JSONCoding.response(.ok, try await admin.searchUsers(query(request)["q"] ?? ""))
        }
        route(.get, "/v1/admin/users/:id") { request, _ throws(ProtocolError) in
            JSONCoding.response(.ok, try await admin.user(try userID(request)))
        }
        route(.post, "/v1/admin/users/:id/suspend", "user.suspend") { request, me throws(ProtocolError) in
            JSONCoding.response(.ok, try await admin.suspend(try userID(request), try request.decodeBody(SuspendRequest.self), by: me))
        }
        route(.post, "/v1/admin/users/:id/unsuspend", "user.unsuspend") { request, me throws(ProtocolError) in
            JSONCoding.response(.ok, try await admin.unsuspend(try userID(request), reason: try optionalReason(request), by: me))
        }
        route(.post, "/v1/admin/users/:id/revoke-sessions", "user.revoke_sessions") { request, me throws(ProtocolError) in
            let count = try await admin.revokeSessions(of: try userID(request), reason: try optionalReason(request), by: me)
            return JSONCoding.response(.ok, SessionsRevoked(revoked: count))
        }
        route(.post, "/v1/admin/users/:id/delete", "user.delete") { request, me throws(ProtocolError) in
            try await admin.deleteUser(try userID(request), reason: try request.decodeBody(AdminReason.self).reason, by: me)
            return HTTPResponse(status: .noContent)
        }

        // Groups and rooms
        route(.get, "/v1/admin/conversations/:id") { request, _ throws(ProtocolError) in
            JSONCoding.response(.ok, try await admin.conversation(try conversationID(request)))
        }
        route(.post, "/v1/admin/groups/:id/disband", "group.disband") { request, me throws(ProtocolError) in
            try await admin.disband(try conversationID(request), reason: try request.decodeBody(AdminReason.self).reason, by: me)
            return HTTPResponse(status: .noContent)
        }
        route(.post, "/v1/admin/groups/:id/owner", "group.change_owner") { request, me throws(ProtocolError) in
            let body = try request.decodeBody(OwnerChange.self)
            return JSONCoding.response(.ok, try await admin.changeOwner(try conversationID(request), to: body.userId,
                                                                        reason: body.reason, by: me))
        }

        // Messages
        route(.get, "/v1/admin/conversations/:id/messages/:messageId") { request, _ throws(ProtocolError) in
            JSONCoding.response(.ok, try await admin.messageContext(try conversationID(request), request.parameters["messageId"] ?? ""))
        }
        route(.post, "/v1/admin/conversations/:id/messages/:messageId/remove", "message.remove") { request, me throws(ProtocolError) in
            let reason = try request.decodeBody(AdminReason.self).reason
            return JSONCoding.response(.ok, try await admin.removeMessage(try conversationID(request), request.parameters["messageId"] ?? "",
                                                                          reason: reason, by: me))
        }

        // Reports
        route(.get, "/v1/admin/reports") { request, _ throws(ProtocolError) in
            JSONCoding.response(.ok, try await admin.reports(try reportFilter(query(request))))
        }
        route(.get, "/v1/admin/reports/:id") { request, _ throws(ProtocolError) in
            JSONCoding.response(.ok, try await admin.report(request.parameters["id"] ?? ""))
        }
        route(.post, "/v1/admin/reports/:id/assign", "report.assign") { request, me throws(ProtocolError) in
            JSONCoding.response(.ok, try await admin.assign(request.parameters["id"] ?? "", try request.decodeBody(ReportAssignment.self), by: me))
        }
        route(.post, "/v1/admin/reports/:id/resolve", "report.resolve") { request, me throws(ProtocolError) in
            JSONCoding.response(.ok, try await admin.resolve(request.parameters["id"] ?? "", try request.decodeBody(ReportResolution.self), by: me))
        }

        // The server
        route(.get, "/v1/admin/stats") { _, _ throws(ProtocolError) in
            JSONCoding.response(.ok, try await admin.stats(connections: connections()))
        }
        route(.get, "/v1/admin/audit") { request, _ throws(ProtocolError) in
            JSONCoding.response(.ok, try await admin.audit(before: query(request)["before"]))
        }
    }

    private static func userID(_ request: APIRequest) throws(ProtocolError) -> UserID {
        guard let id = UserID(string: request.parameters["id"] ?? "") else { throw ProtocolError(.notFound, "no such user") }
        return id
    }

    private static func conversationID(_ request: APIRequest) throws(ProtocolError) -> ConversationID {
        guard let id = ConversationID(string: request.parameters["id"] ?? "") else { throw ProtocolError(.notFound, "no such conversation") }
        return id
    }

    /// The reason of a body that may be absent altogether.
    private static func optionalReason(_ request: APIRequest) throws(ProtocolError) -> String? {
        request.http.body.isEmpty ? nil : try request.decodeBody(AdminReason.self).reason
    }

    /// The URL's query parameters, decoded; the last of a repeated name wins.
    static func query(_ request: APIRequest) -> [String: String] {
        guard let query = request.http.head.query else { return [:] }
        var values: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard let name = parts.first else { continue }
            let raw = parts.count > 1 ? String(parts[1]).replacingOccurrences(of: "+", with: " ") : ""
            values[String(name)] = raw.removingPercentEncoding ?? raw
        }
        return values
    }

    static func reportFilter(_ query: [String: String]) throws(ProtocolError) -> ReportFilter {
        var filter = ReportFilter()
        if let status = query["status"], !status.isEmpty {
            guard let value = Report.Status(rawValue: status) else { throw ProtocolError(.invalidField, "status is open or resolved", field: "status") }
            filter.status = value
        }
        if let reason = query["reason"], !reason.isEmpty {
            guard let value = ReportReason(rawValue: reason) else { throw ProtocolError(.invalidField, "unknown reason", field: "reason") }
            filter.reason = value
        }
        if let user = query["userId"], !user.isEmpty {
            guard let value = UserID(string: user) else { throw ProtocolError(.invalidField, "userId is a user id", field: "userId") }
            filter.userID = value
        }
        if let assignee = query["assigneeId"], !assignee.isEmpty {
            guard let value = UserID(string: assignee) else { throw ProtocolError(.invalidField, "assigneeId is a user id", field: "assigneeId") }
            filter.assigneeID = value
        }
        if let before = query["before"], !before.isEmpty {
            guard let value = Int64(before) else { throw ProtocolError(.invalidField, "before is a report id", field: "before") }
            filter.before = value
        }
        return filter
    }
}
