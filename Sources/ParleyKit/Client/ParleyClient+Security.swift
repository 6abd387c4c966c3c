public import Foundation
public import ParleyProtocol

// The account's security (docs/protocol.md, "Account security"): the password, the phone
// number, signing the other devices out, deleting the account, exporting its data.
extension ParleyClient {
    /// Changes the password. Every other device is signed out unless `keepOtherSessions`;
    /// returns how many were. Errors: `invalid_credentials` (wrong current password, counted
    /// as a failed sign-in), `invalid_password`, `password_not_set`, `rate_limited`.
    @discardableResult
    public func changePassword(current: String, new: String, keepOtherSessions: Bool = false) async throws(ParleyError) -> Int {
        let answer = try await http.send("POST", "/v1/me/password",
                                         json: PasswordChange(current: current, new: new, keepOtherSessions: keepOtherSessions),
                                         token: try requireToken(), as: SessionsRevoked.self)
        if !keepOtherSessions { try? store.setDevices(try store.devices().filter(\.current)) }
        return answer.revoked
    }

    /// Asks for a password-reset code for `phone` (signed out); the answer is the same
    /// whether or not an account has the number.
    public func requestPasswordReset(phone: String) async throws(ParleyError) -> SMSCodeSent {
        try await http.send("POST", "/v1/auth/password-reset/request", json: SMSCodeRequest(phone: phone), token: nil, as: SMSCodeSent.self)
    }

    /// Sets a new password with the texted code; every device of the account is signed out.
    /// Errors: `invalid_code`, `code_expired`, `too_many_attempts`, `invalid_password`.
    public func resetPassword(phone: String, code: String, newPassword: String) async throws(ParleyError) {
        let body = try Self.encoded(PasswordReset(phone: phone, code: code, newPassword: newPassword))
        _ = try await http.exchange("POST", "/v1/auth/password-reset/verify", body: body, contentType: "application/json", token: nil)
    }

    /// Texts a code to a number the account wants to bind. Errors: `phone_taken`,
    /// `invalid_phone`, `rate_limited`.
    public func requestPhoneBinding(phone: String) async throws(ParleyError) -> SMSCodeSent {
        try await http.send("POST", "/v1/me/phone/request", json: SMSCodeRequest(phone: phone), token: try requireToken(), as: SMSCodeSent.self)
    }

    /// Binds the number with its code (the old one is unbound). Errors: `invalid_code`,
    /// `code_expired`, `too_many_attempts`, `phone_taken`.
    @discardableResult
    public func bindPhone(_ phone: String, code: String) async throws(ParleyError) -> Account {
        let account = try await http.send("POST", "/v1/me/phone/verify", json: SMSCodeVerification(phone: phone, code: code),
                                          token: try requireToken(), as: Account.self)
        try? store.setAccount(account)
        me = account
        return account
    }

    /// Removes the account's phone number. Errors: `invalid_credentials`, `password_not_set`.
    @discardableResult
    public func unbindPhone(password: String) async throws(ParleyError) -> Account {
        let account = try await http.send("DELETE", "/v1/me/phone", json: PasswordConfirmation(password: password),
                                          token: try requireToken(), as: Account.self)
        try? store.setAccount(account)
        me = account
        return account
    }

    /// Signs out every device of the account but this one; returns how many.
    @discardableResult
    public func signOutOtherDevices() async throws(ParleyError) -> Int {
        let answer = try await http.send("DELETE", "/v1/auth/sessions", json: NoBody?.none, token: try requireToken(), as: SessionsRevoked.self)
        try? store.setDevices(try store.devices().filter(\.current))
        return answer.revoked
    }

    /// Deletes the account (the password, or for an SMS-only account a texted code), then
    /// forgets it on this device as `logout` does. Errors: `invalid_credentials`,
    /// `missing_field`, `invalid_code`.
    public func deleteAccount(password: String? = nil, code: String? = nil) async throws(ParleyError) {
        let body = try Self.encoded(AccountDeletion(password: password, code: code))
        _ = try await http.exchange("DELETE", "/v1/me", body: body, contentType: "application/json", token: try requireToken())
        await logout()
    }

    /// Starts building an export of the account's data.
    public func startExport() async throws(ParleyError) -> ExportStatus {
        try await http.send("POST", "/v1/me/export", json: NoBody?.none, token: try requireToken(), as: ExportStatus.self)
    }

    /// The export: its ZIP bytes once ready, else nil with the status (building, progress).
    /// Errors: `not_found` (none started, or expired), `payload_too_large`.
    public func export() async throws(ParleyError) -> (status: ExportStatus?, archive: Data?) {
        let data = try await http.exchange("GET", "/v1/me/export", body: nil, contentType: nil, token: try requireToken())
        // A ZIP starts with "PK"; a status is JSON.
        if data.starts(with: [0x50, 0x4B]) { return (nil, data) }
        do {
            return (try JSONDecoder().decode(ExportStatus.self, from: data), nil)
        } catch {
            throw ParleyError.invalidResponse("GET /v1/me/export: \(error)")
        }
    }

    private static func encoded(_ value: some Encodable) throws(ParleyError) -> Data {
        do { return try JSONEncoder().encode(value) } catch { throw ParleyError.invalidResponse("cannot encode the request: \(error)") }
    }
}
