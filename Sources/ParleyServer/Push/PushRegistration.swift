import Foundation
import ParleyCore
import ParleyNet
import ParleyProtocol

/// `POST /v1/push/subscriptions`: a browser's `PushSubscription` as `toJSON()` gives it.
struct WebPushSubscriptionBody: Codable, Sendable {
    struct Keys: Codable, Sendable {
        var p256dh: String
        var auth: String
    }

    var endpoint: String
    var keys: Keys
}

/// `POST /v1/push/devices`: a native app's device at a push gateway.
struct PushDeviceBody: Codable, Sendable {
    var gatewayUrl: String?
    var appId: String
    var pushkey: String
}

/// The answer to a registration: its id, to remove it with.
struct PushTargetReference: Codable, Sendable {
    var id: String
}

/// `GET /v1/push/vapid-key`.
struct VAPIDPublicKey: Codable, Sendable {
    var publicKey: String
}

/// Checks and stores push targets for the signed-in session that registers them.
struct PushRegistration: Sendable {
    /// What a registration may hold.
    struct Limits: Sendable {
        /// Longest endpoint or gateway URL accepted (`--push-max-url-bytes`).
        var maxURLBytes = 2048
        /// Longest app id or push key accepted (`--push-max-key-bytes`).
        var maxKeyBytes = 512
        /// Targets one user may have; a new one beyond it replaces the oldest
        /// (`--push-targets-per-user`).
        var targetsPerUser = 20
    }

    let store: any Store
    let limits: Limits
    /// Whether http endpoints on loopback may be registered (`--push-allow-loopback`, tests).
    let allowLoopback: Bool
    /// Told of each new registration, so the user's pushes start at once.
    let absent: AbsentTargets
    let defaultGatewayURL: String
    let clock: @Sendable () -> Int64

    func subscribe(_ body: WebPushSubscriptionBody, session: AuthenticatedSession) async throws(ProtocolError) -> PushTargetReference {
        try checkURL(body.endpoint, field: "endpoint")
        guard let p256dh = Base64URL.decode(body.keys.p256dh), (try? P256Key(publicKey: p256dh)) != nil else {
            throw ProtocolError(.invalidField, "keys.p256dh must be a base64url P-256 public key (65 bytes)", field: "keys.p256dh")
        }
        guard let auth = Base64URL.decode(body.keys.auth), auth.count == 16 else {
            throw ProtocolError(.invalidField, "keys.auth must be 16 bytes in base64url", field: "keys.auth")
        }
        return try await save(StoredPushTarget(id: SecureRandom.token(byteCount: 16), userID: session.userID, sessionID: session.sessionID,
                                               kind: .webPush, endpoint: body.endpoint, p256dh: p256dh, auth: auth, createdAt: clock()))
    }

    func register(_ body: PushDeviceBody, session: AuthenticatedSession) async throws(ProtocolError) -> PushTargetReference {
        let gateway = body.gatewayUrl ?? defaultGatewayURL
        guard !gateway.isEmpty else {
            throw ProtocolError(.missingField, "this server has no default push gateway: give gatewayUrl", field: "gatewayUrl")
        }
        try checkURL(gateway, field: "gatewayUrl")
        for (value, field) in [(body.appId, "appId"), (body.pushkey, "pushkey")] {
            guard !value.isEmpty, value.utf8.count <= limits.maxKeyBytes, !value.contains("\n") else {
                throw ProtocolError(.invalidField, "\(field) must be 1 to \(limits.maxKeyBytes) bytes on one line", field: field)
            }
        }
        return try await save(StoredPushTarget(id: SecureRandom.token(byteCount: 16), userID: session.userID, sessionID: session.sessionID,
                                               kind: .gateway, endpoint: gateway, appID: body.appId, pushkey: body.pushkey, createdAt: clock()))
    }

    /// Removes one of the user's targets; `not_found` if it is not theirs.
    func remove(id: String, session: AuthenticatedSession) async throws(ProtocolError) {
        let removed: Bool
        do {
            removed = try await store.write { writer in try writer.deletePushTarget(id: id, of: session.userID) }
        } catch {
            throw ProtocolError(.internalError, "cannot remove the push registration")
        }
        guard removed else { throw ProtocolError(.notFound, "no push registration of yours with that id") }
    }

    private func save(_ target: StoredPushTarget) async throws(ProtocolError) -> PushTargetReference {
        let limit = limits.targetsPerUser
        do {
            try await store.write { writer in
                // Beyond the limit the oldest go (a browser reinstalled ten times keeps working).
                let others = try writer.pushTargets(of: target.userID).filter { $0.kind != target.kind || $0.address != target.address }
                for old in others.prefix(max(0, others.count - limit + 1)) {
                    _ = try writer.deletePushTarget(id: old.id, of: target.userID)
                }
                try writer.savePushTarget(target)
            }
        } catch {
            throw ProtocolError(.internalError, "cannot store the push registration")
        }
        absent.forget(target.userID)
        return PushTargetReference(id: target.id)
    }

    private func checkURL(_ text: String, field: String) throws(ProtocolError) {
        guard text.utf8.count <= limits.maxURLBytes, let url = URL(string: text), PushSender.isAcceptable(url, allowLoopback: allowLoopback) else {
            throw ProtocolError(.invalidField, "\(field) must be an https URL of at most \(limits.maxURLBytes) bytes", field: field)
        }
    }
}
