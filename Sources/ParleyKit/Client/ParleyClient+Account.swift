public import Foundation
public import ParleyProtocol

// Signing in and out (HTTP), the devices list and uploads.
extension ParleyClient {
    /// Creates an account and signs in with it; the client starts connecting.
    /// Errors: `invalid_username`, `invalid_password`, `username_taken`.
    @discardableResult
    public func register(username: String, password: String) async throws(ParleyError) -> Account {
        let result = try await http.send("POST", "/v1/auth/register", json: Credentials(username: username, password: password),
                                         token: nil, as: AuthResult.self)
        try adopt(result)
        return result.user
    }

    /// Signs in with a username and password; the client starts connecting.
    /// Errors: `invalid_credentials` (never says which of the two was wrong), `rate_limited`.
    @discardableResult
    public func login(username: String, password: String) async throws(ParleyError) -> Account {
        let result = try await http.send("POST", "/v1/auth/login", json: Credentials(username: username, password: password),
                                         token: nil, as: AuthResult.self)
        try adopt(result)
        return result.user
    }

    /// Asks the server to text a sign-in code to `phone`. The answer says when another code
    /// may be requested (a client counts down) and how many digits the code has.
    /// Errors: `invalid_phone`, `rate_limited` (with `retryAfterSeconds`), `sms_delivery_failed`.
    public func requestSMSCode(phone: String) async throws(ParleyError) -> SMSCodeSent {
        try await http.send("POST", "/v1/auth/sms/request", json: SMSCodeRequest(phone: phone), token: nil, as: SMSCodeSent.self)
    }

    /// Signs in with the texted code; the first sign-in of a number creates an account
    /// without a username (`AuthResult.created`), which the user then sets with
    /// `updateProfile`. Errors: `invalid_code`, `code_expired`, `too_many_attempts`.
    @discardableResult
    public func login(phone: String, code: String) async throws(ParleyError) -> AuthResult {
        let result = try await http.send("POST", "/v1/auth/sms/verify", json: SMSCodeVerification(phone: phone, code: code),
                                         token: nil, as: AuthResult.self)
        try adopt(result)
        return result
    }

    /// Signs out: the server is told when it can be reached (the token stops working at
    /// once); this device forgets the session, the cache and the outbox in any case.
    public func logout() async {
        let token = self.token
        halt(reason: .signedOut)
        if let token {
            _ = try? await http.exchange("POST", "/v1/auth/logout", body: nil, contentType: nil, token: token)
        }
        self.token = nil
        me = nil
        presence.removeAll()
        resourcesByUser.removeAll()
        try? store.clearAccountData()
        failAcknowledgementWaiters(.notSignedIn)
        emit(.signedOut)
    }

    /// The account's signed-in devices, newest first (also kept in the cache).
    public func signedInDevices() async throws(ParleyError) -> [SessionInfo] {
        let list = try await http.send("GET", "/v1/auth/sessions", json: NoBody?.none, token: try requireToken(), as: SessionList.self)
        try? store.setDevices(list.sessions)
        return list.sessions
    }

    /// The devices list as last fetched.
    public func cachedDevices() throws(ParleyError) -> [SessionInfo] {
        try store.devices()
    }

    /// Signs one of the account's devices out.
    public func signOutDevice(id: String) async throws(ParleyError) {
        _ = try await http.exchange("DELETE", "/v1/auth/sessions/\(id)", body: nil, contentType: nil, token: try requireToken())
        try? store.setDevices(try store.devices().filter { $0.id != id })
    }

    /// Uploads an image (PNG, JPEG, GIF or WebP) for an avatar or an image message, or an
    /// Opus recording (WebM or Ogg) for a voice message (`sendVoice`).
    /// Errors: `payload_too_large`, `unsupported_media_type`.
    public func uploadImage(_ bytes: Data) async throws(ParleyError) -> MediaInfo {
        let data = try await http.exchange("POST", "/v1/media", body: bytes, contentType: "application/octet-stream", token: try requireToken())
        do {
            return try JSONDecoder().decode(MediaInfo.self, from: data)
        } catch {
            throw ParleyError.invalidResponse("POST /v1/media: \(error)")
        }
    }

    /// The absolute URL of a media path (`/v1/media/<id>`) or an avatar URL.
    public nonisolated func mediaURL(_ path: String) -> URL? {
        URL(string: path, relativeTo: configuration.server)?.absoluteURL
    }

    /// Who signed in on this device before, newest first (for a login screen's prefill).
    public func knownLogins() -> [KnownLogin] {
        (try? store.knownLogins()) ?? []
    }

    func requireToken() throws(ParleyError) -> String {
        guard let token else { throw ParleyError.notSignedIn }
        return token
    }

    /// Keeps a new session. Another account's cache and outbox must not show through, so
    /// they go when a different user signs in.
    private func adopt(_ result: AuthResult) throws(ParleyError) {
        if let previous = try store.account(), previous.profile.id != result.user.profile.id {
            halt(reason: .signedOut)
            try store.clearAccountData()
            presence.removeAll()
            resourcesByUser.removeAll()
        }
        try store.setMeta("token", result.token)
        token = result.token
        try store.setAccount(result.user)
        me = result.user
        if running {
            // Signed in again while connected with an older session: reconnect with the new one.
            halt(reason: .stopped)
        }
        start()
    }
}
