public import ParleyProtocol
import ParleySync

/// Registration, sign-in (password and SMS code), sessions and profiles: every rule of
/// accounts in one place. Transport-free: the server decodes requests and calls these.
public final class AccountService: Sendable {
    let gateway: StoreGateway
    let passwords: PasswordHashing
    let secrets: SecretGenerating
    let sms: SMSSending
    let clock: WallClock
    let validator: AccountValidator
    /// Derives SCRAM credentials whenever the server sees a password; nil stores none.
    let scram: SCRAMCredentialDeriving?
    private let smsPerAddress: SlidingWindowLimiter
    let loginFailuresByAccount: SlidingWindowLimiter
    let loginFailuresByAddress: SlidingWindowLimiter
    private let registrationsByAddress: SlidingWindowLimiter
    /// A hash computed for unknown usernames so a failed login takes as long either way.
    let decoyHash: String?
    /// Told of every stored profile update that changed the nickname or the avatar.
    private let profileObservers = PThreadMutex<[@Sendable (ProfileChange) -> Void]>([])

    public var rules: AccountRules { validator.rules }

    public init(store: Store, passwords: PasswordHashing, secrets: SecretGenerating, sms: SMSSending,
                blocking: BlockingExecutor, rules: AccountRules = AccountRules(), clock: @escaping WallClock,
                scram: SCRAMCredentialDeriving? = nil) {
        self.scram = scram
        gateway = StoreGateway(store: store, blocking: blocking)
        self.passwords = passwords
        self.secrets = secrets
        self.sms = sms
        self.clock = clock
        validator = AccountValidator(rules: rules)
        smsPerAddress = SlidingWindowLimiter(limit: rules.smsMaxPerAddressPerHour, windowSeconds: 3600)
        loginFailuresByAccount = SlidingWindowLimiter(limit: rules.loginFailuresPerAccount, windowSeconds: rules.loginWindowSeconds)
        loginFailuresByAddress = SlidingWindowLimiter(limit: rules.loginFailuresPerAddress, windowSeconds: rules.loginWindowSeconds)
        registrationsByAddress = SlidingWindowLimiter(limit: rules.registrationsPerAddressPerHour, windowSeconds: 3600)
        decoyHash = try? passwords.hash(secrets.token())
    }

    // MARK: Password accounts

    /// Creates an account and signs it in.
    public func register(username: String, password: String, userAgent: String?,
                         clientAddress: String = "", deviceName: String? = nil) async throws(ProtocolError) -> AuthResult {
        try validator.validateUsername(username)
        try validator.validatePassword(password)
        // Only accounts actually created count against the address.
        if let wait = registrationsByAddress.retryAfter(clientAddress, now: clock()) {
            throw ProtocolError(.rateLimited, "too many accounts registered from this address; try later", retryAfterSeconds: wait)
        }
        let (hash, credentials) = try await runBlocking { [passwords, scram] in
            (try passwords.hash(password), scram?.derive(password: password) ?? [])
        }
        let now = clock()
        let quarantine = usernameHash(username)
        let result = try await write { [self] writer in
            if try writer.user(username: username) != nil || writer.isUsernameQuarantined(hash: quarantine, at: now) {
                throw ProtocolError(.usernameTaken, "the username '\(username)' is taken", field: "username")
            }
            let user: StoredUser
            do {
                user = try writer.insertUser(NewUser(username: username, passwordHash: hash, phone: nil, createdAt: now))
            } catch StoreError.conflict {
                throw ProtocolError(.usernameTaken, "the username '\(username)' is taken", field: "username")
            }
            if !credentials.isEmpty { try writer.replaceSCRAMCredentials(of: user.id, with: credentials) }
            return try openSession(for: user, device: SignInDevice(userAgent: userAgent, name: deviceName, address: clientAddress),
                                   created: true, now: now, writer: writer)
        }
        registrationsByAddress.record(clientAddress, now: now)
        return result
    }

    /// Signs in with username and password. Unknown user and wrong password fail alike.
    /// Failures are counted per username and per client address; past their limits, every
    /// attempt is refused with `rate_limited` until the window passes (no guessing).
    public func login(username: String, password: String, userAgent: String?,
                      clientAddress: String = "", deviceName: String? = nil) async throws(ProtocolError) -> AuthResult {
        let user = try await verifyPassword(username: username, password: password, clientAddress: clientAddress)
        let now = clock()
        return try await write { [self] writer in
            try openSession(for: user, device: SignInDevice(userAgent: userAgent, name: deviceName, address: clientAddress),
                            created: false, now: now, writer: writer)
        }
    }

    /// Checks a username and password exactly as `login` does (same failure limits) without
    /// opening a session: for gateways whose clients send the password on every connection
    /// (XMPP's PLAIN).
    public func checkPassword(username: String, password: String, clientAddress: String) async throws(ProtocolError) -> Account {
        let user = try await verifyPassword(username: username, password: password, clientAddress: clientAddress)
        try await checkNotSuspended(user.id)
        return user.account
    }

    /// The first step of a SCRAM sign-in (XMPP): the user and their stored credential for
    /// `mechanism`. Refused with `rate_limited` under the same failure limits as `login`.
    /// Nil when the user is unknown, has no password, or has no credential for the mechanism
    /// yet; the caller then goes on with a made-up salt and fails at the proof, so the
    /// exchange does not tell which. A suspended account's candidate carries the suspension
    /// as `refusal`, for the caller to answer after a correct proof.
    public func scramCredential(username: String, mechanism: String,
                                clientAddress: String) async throws(ProtocolError) -> SCRAMCandidate? {
        let now = clock()
        if let wait = loginFailuresByAccount.retryAfter(username.lowercased(), now: now) ?? loginFailuresByAddress.retryAfter(clientAddress, now: now) {
            throw ProtocolError(.rateLimited, "too many failed sign-ins; wait before trying again", retryAfterSeconds: wait)
        }
        guard validator.rules.usernameLength.contains(username.unicodeScalars.count) else { return nil }
        return try await read { reader in
            guard let user = try reader.user(username: username), user.passwordHash != nil,
                  let credential = try reader.scramCredentials(of: user.id).first(where: { $0.mechanism == mechanism }) else { return nil }
            // A suspended account is refused after the proof (`refusal`), never before it: the
            // challenge must not tell whoever tries the username that it exists, or why it is shut.
            var refusal: ProtocolError?
            do {
                try Self.checkNotSuspended(user.id, reader: reader, now: now)
            } catch let error as ProtocolError {
                refusal = error
            }
            return SCRAMCandidate(account: user.account, credential: credential, refusal: refusal)
        }
    }

    /// Counts a failed SCRAM proof against the username and address, as a wrong password is.
    public func recordFailedSignIn(username: String, clientAddress: String) {
        let now = clock()
        loginFailuresByAccount.record(username.lowercased(), now: now)
        loginFailuresByAddress.record(clientAddress, now: now)
    }

    /// The password check behind `login` and `checkPassword`. On success it also stores the
    /// SCRAM credentials of an account that has none yet (created before they existed).
    private func verifyPassword(username: String, password: String, clientAddress: String) async throws(ProtocolError) -> StoredUser {
        let invalid = ProtocolError(.invalidCredentials, "wrong username or password")
        let accountKey = username.lowercased()
        let started = clock()
        if let wait = loginFailuresByAccount.retryAfter(accountKey, now: started) ?? loginFailuresByAddress.retryAfter(clientAddress, now: started) {
            throw ProtocolError(.rateLimited, "too many failed sign-ins; wait before trying again", retryAfterSeconds: wait)
        }
        func failed() -> ProtocolError {
            loginFailuresByAccount.record(accountKey, now: started)
            loginFailuresByAddress.record(clientAddress, now: started)
            return invalid
        }
        guard validator.rules.passwordBytes.contains(password.utf8.count),
              validator.rules.usernameLength.contains(username.unicodeScalars.count) else { throw failed() }
        let found = try await read { reader -> (StoredUser, [String])? in
            guard let user = try reader.user(username: username) else { return nil }
            return (user, try reader.scramCredentials(of: user.id).map(\.mechanism))
        }
        let hash = found?.0.passwordHash ?? decoyHash
        let matches = try await runBlocking { [passwords] in
            hash.map { passwords.verify(password, against: $0) } ?? false
        }
        guard let (user, mechanisms) = found, user.passwordHash != nil, matches else { throw failed() }
        if let scram, Set(mechanisms) != Set(scram.mechanisms) {
            let credentials = try await runBlocking { scram.derive(password: password) }
            try await write { writer in try writer.replaceSCRAMCredentials(of: user.id, with: credentials) }
        }
        return user
    }

    // MARK: Phone accounts

    /// Sends a new code to `phone`, within the per-phone daily limit, the resend interval and
    /// the per-address limit (checked in that order, so the answer names the longest wait).
    public func requestSMSCode(phone input: String, clientAddress: String) async throws(ProtocolError) -> SMSCodeSent {
        try await issueSMSCode(phone: try validator.normalizePhone(input), clientAddress: clientAddress, deliverIf: nil)
    }

    /// Saves a new code for `phone` under every limit of `requestSMSCode`, and sends it
    /// unless `deliverIf`, asked inside the write, says no. A code that is not sent is still
    /// saved and counted, so the answers to the next requests and guesses are the same
    /// whether it went out or not (a password reset never tells whether a number has an account).
    func issueSMSCode(phone: String, clientAddress: String,
                      deliverIf: (@Sendable (StoreWriter) throws -> Bool)?) async throws(ProtocolError) -> SMSCodeSent {
        let rules = validator.rules
        let now = clock()
        // The daily count per number is kept in the store (not in memory), so a restart does
        // not reset it; it is checked again and recorded in the transaction that saves the
        // new code, so concurrent requests cannot both take the last one.
        let day: Int64 = 86_400_000
        let perDay = rules.smsMaxPerPhonePerDay
        @Sendable func dailyLimitError(_ sent: [Int64]) -> ProtocolError? {
            guard sent.count >= perDay else { return nil }
            let wait = max(1, Int((sent[sent.count - perDay] + day - now + 999) / 1000))
            return ProtocolError(.rateLimited, "too many codes sent to this number today", retryAfterSeconds: wait)
        }
        let (existing, sent) = try await read { reader in
            (try reader.smsChallenge(phone: phone), try reader.smsSendTimes(phone: phone, since: now - day))
        }
        if let error = dailyLimitError(sent) { throw error }
        if let existing {
            let wait = Int((existing.sentAt + Int64(rules.smsResendIntervalSeconds) * 1000 - now + 999) / 1000)
            if wait > 0 {
                throw ProtocolError(.rateLimited, "a code was sent to this number moments ago; wait \(wait) s", retryAfterSeconds: wait)
            }
        }
        if let wait = smsPerAddress.attempt("address:" + clientAddress, now: now) {
            throw ProtocolError(.rateLimited, "too many codes requested from this address", retryAfterSeconds: wait)
        }
        let code = secrets.numericCode(digits: rules.smsCodeLength)
        let challenge = SMSChallenge(phone: phone, codeHash: secrets.hash(phone + ":" + code), sentAt: now,
                                     expiresAt: now + Int64(rules.smsCodeLifetimeSeconds) * 1000, failedAttempts: 0)
        let deliver = try await write { writer in
            if let error = dailyLimitError(try writer.smsSendTimes(phone: phone, since: now - day)) { throw error }
            try writer.recordSMSSend(phone: phone, at: now, forgetBefore: now - day)
            try writer.saveSMSChallenge(challenge)
            return try deliverIf?(writer) ?? true
        }
        do {
            if deliver { try await sms.send(phone: phone, code: code) }
        } catch {
            throw ProtocolError(.smsDeliveryFailed, "the code could not be sent; try again later")
        }
        return SMSCodeSent(retryAfterSeconds: rules.smsResendIntervalSeconds,
                           expiresInSeconds: rules.smsCodeLifetimeSeconds, codeLength: rules.smsCodeLength)
    }

    /// Checks a code and signs in; the first sign-in of a number creates its account (whose
    /// username the user sets later with a profile update).
    public func verifySMSCode(phone input: String, code: String, userAgent: String?, clientAddress: String = "",
                              deviceName: String? = nil) async throws(ProtocolError) -> AuthResult {
        let phone = try validator.normalizePhone(input)
        try validator.validateCode(code)
        let now = clock()
        let codeHash = secrets.hash(phone + ":" + code)
        let device = SignInDevice(userAgent: userAgent, name: deviceName, address: clientAddress)
        // The outcome of a wrong guess must be committed (the attempt counts), so failures are
        // returned from the transaction rather than thrown through it.
        let outcome: Result<AuthResult, ProtocolError> = try await write { [self] writer in
            if let failure = try consumeSMSCode(phone: phone, codeHash: codeHash, now: now, writer: writer) {
                return .failure(failure)
            }
            if let user = try writer.user(phone: phone) {
                return .success(try openSession(for: user, device: device, created: false, now: now, writer: writer))
            }
            let user = try writer.insertUser(NewUser(username: nil, passwordHash: nil, phone: phone, createdAt: now))
            return .success(try openSession(for: user, device: device, created: true, now: now, writer: writer))
        }
        return try outcome.get()
    }

    /// Checks a code inside a write and uses it up: nil when it is right (the code can never
    /// be used again), else the error to answer, with a wrong guess counted. The caller must
    /// commit either way, so it returns the error rather than throwing it through the write.
    func consumeSMSCode(phone: String, codeHash: [UInt8], now: Int64, writer: StoreWriter) throws -> ProtocolError? {
        let maxAttempts = validator.rules.smsMaxAttempts
        do {
            // A used code stays on record with an empty hash, so the resend interval still counts.
            guard var challenge = try writer.smsChallenge(phone: phone), !challenge.codeHash.isEmpty else {
                return ProtocolError(.invalidCode, "no code was requested for this number, or it was used", field: "code")
            }
            if challenge.expiresAt <= now {
                try writer.deleteSMSChallenge(phone: phone)
                return ProtocolError(.codeExpired, "the code has expired; request a new one", field: "code")
            }
            if challenge.failedAttempts >= maxAttempts {
                return ProtocolError(.tooManyAttempts, "too many wrong codes; request a new one")
            }
            guard constantTimeEqual(challenge.codeHash, codeHash) else {
                challenge.failedAttempts += 1
                try writer.saveSMSChallenge(challenge)
                if challenge.failedAttempts >= maxAttempts {
                    return ProtocolError(.tooManyAttempts, "too many wrong codes; request a new one")
                }
                return ProtocolError(.invalidCode, "wrong code", field: "code")
            }
            challenge.codeHash = []
            try writer.saveSMSChallenge(challenge)
            return nil
        }
    }

    // MARK: Sessions

    /// The session a bearer token belongs to.
    /// The session's last use is written at most every `sessionTouchIntervalSeconds`, or at
    /// once when it comes from another address than last time (`clientAddress`, nil when
    /// the caller does not know it).
    public func authenticate(token: String, clientAddress: String? = nil) async throws(ProtocolError) -> AuthenticatedSession {
        let unauthorized = ProtocolError(.unauthorized, "sign in first: the token is missing, unknown or signed out")
        guard !token.isEmpty, token.utf8.count <= 128 else { throw unauthorized }
        let tokenHash = secrets.hash(token)
        let now = clock()
        guard let session = try await read({ reader -> StoredSession? in
            guard let session = try reader.session(tokenHash: tokenHash) else { return nil }
            try Self.checkNotSuspended(session.userID, reader: reader, now: now)
            return session
        }) else { throw unauthorized }
        let address = clientAddress.flatMap { $0.isEmpty ? nil : $0 }
        if now - session.lastSeenAt > Int64(validator.rules.sessionTouchIntervalSeconds) * 1000
            || (address != nil && address != session.lastAddress) {
            try await write { writer in try writer.touchSession(id: session.id, at: now, address: address) }
        }
        return AuthenticatedSession(userID: session.userID, sessionID: session.id)
    }

    /// Ends the session.
    public func logout(_ session: AuthenticatedSession) async throws(ProtocolError) {
        _ = try await write { writer in try writer.deleteSession(id: session.sessionID, userID: session.userID) }
    }

    /// The user's signed-in devices, newest first.
    public func sessions(of session: AuthenticatedSession) async throws(ProtocolError) -> SessionList {
        let stored = try await read { reader in try reader.sessions(of: session.userID) }
        return SessionList(sessions: stored.sorted { $0.createdAt > $1.createdAt }.map {
            SessionInfo(id: $0.id, createdAt: $0.createdAt, lastSeenAt: $0.lastSeenAt, userAgent: $0.userAgent,
                        current: $0.id == session.sessionID, deviceName: $0.deviceName, lastAddress: $0.lastAddress)
        })
    }

    /// The device name of the signed-in session (nil when it has none, or is gone).
    public func deviceName(of session: AuthenticatedSession) async -> String? {
        let stored = try? await read { reader in try reader.sessions(of: session.userID) }
        return stored?.first { $0.id == session.sessionID }?.deviceName
    }

    /// Signs one of the user's devices out.
    public func revokeSession(id: String, of session: AuthenticatedSession) async throws(ProtocolError) {
        let removed = try await write { writer in try writer.deleteSession(id: id, userID: session.userID) }
        guard removed else { throw ProtocolError(.notFound, "no such session") }
    }

    // MARK: Profiles

    /// The signed-in user's account.
    public func account(of userID: UserID) async throws(ProtocolError) -> Account {
        let found = try await read { reader -> (StoredUser, NotificationPreview?)? in
            guard let user = try reader.user(id: userID) else { return nil }
            return (user, try reader.notificationPreview(of: userID))
        }
        guard let (user, preview) = found else {
            throw ProtocolError(.unauthorized, "the account no longer exists")
        }
        var account = user.account
        account.notificationPreview = preview
        return account
    }

    /// Applies a profile change. The username may be set only while it is unset (phone
    /// accounts choose it once).
    public func updateProfile(of userID: UserID, with update: ProfileUpdate) async throws(ProtocolError) -> Account {
        try validator.validate(update)
        let now = clock()
        let change = try await write { [self] writer in
            guard var user = try writer.user(id: userID) else {
                throw ProtocolError(.unauthorized, "the account no longer exists")
            }
            let before = user
            if case .set(let username) = update.username, username != user.username {
                guard user.username == nil else {
                    throw ProtocolError(.usernameAlreadySet, "the username is set already and cannot change", field: "username")
                }
                if try writer.user(username: username) != nil
                    || writer.isUsernameQuarantined(hash: usernameHash(username), at: now) {
                    throw ProtocolError(.usernameTaken, "the username '\(username)' is taken", field: "username")
                }
                user.username = username
            }
            user.nickname = update.nickname.applied(to: user.nickname)
            user.avatar = update.avatar.applied(to: user.avatar)
            if case .set(let avatar) = update.avatar { try MediaReference.mark(avatar: avatar, at: now, writer: writer) }
            user.signature = update.signature.applied(to: user.signature)
            user.age = update.age.applied(to: user.age)
            user.hobbies = update.hobbies.applied(to: user.hobbies) ?? []
            do {
                try writer.updateUser(user)
            } catch StoreError.conflict {
                throw ProtocolError(.usernameTaken, "the username is taken", field: "username")
            }
            if let preview = update.notificationPreview { try writer.setNotificationPreview(preview, of: userID) }
            var account = user.account
            account.notificationPreview = try writer.notificationPreview(of: userID)
            return ProfileChange(account: account, nickname: user.nickname != before.nickname, avatar: user.avatar != before.avatar)
        }
        if change.nickname || change.avatar {
            for observer in profileObservers.withLock({ $0 }) { observer(change) }
        }
        return change.account
    }

    /// Calls `observer` after every stored profile update that changed the nickname or the
    /// avatar, whichever way it was made (the Jabber gateway tells contacts by PEP events).
    public func observeProfileChanges(_ observer: @escaping @Sendable (ProfileChange) -> Void) {
        profileObservers.withLock { $0.append(observer) }
    }

    /// Anyone's public profile, by id.
    public func profile(id: UserID) async throws(ProtocolError) -> UserProfile {
        guard let user = try await read({ reader in try reader.user(id: id) }) else {
            throw ProtocolError(.notFound, "no user with id \(id)")
        }
        return user.profile
    }

    /// Anyone's public profile, by username (any case).
    public func profile(username: String) async throws(ProtocolError) -> UserProfile {
        guard let user = try await read({ reader in try reader.user(username: username) }) else {
            throw ProtocolError(.notFound, "no user named '\(username)'")
        }
        return user.profile
    }

    // MARK: Helpers

    /// What a deleted account's username is reserved under: a hash, so the reservation
    /// keeps no name.
    func usernameHash(_ username: String) -> [UInt8] {
        secrets.hash("username:" + username.lowercased())
    }

    private func openSession(for user: StoredUser, device: SignInDevice, created: Bool, now: Int64,
                             writer: StoreWriter) throws -> AuthResult {
        try Self.checkNotSuspended(user.id, reader: writer, now: now)
        let token = secrets.token()
        let agent = device.userAgent.map { String($0.prefix(200)) }
        let name = DeviceName.resolve(given: device.name, userAgent: device.userAgent, maxLength: validator.rules.deviceNameLength)
        try writer.insertSession(StoredSession(id: secrets.identifier(), userID: user.id, tokenHash: secrets.hash(token),
                                               createdAt: now, lastSeenAt: now, userAgent: agent, deviceName: name,
                                               lastAddress: device.address.isEmpty ? nil : device.address))
        return AuthResult(token: token, user: user.account, created: created)
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (StoreReader) throws -> T) async throws(ProtocolError) -> T {
        try await gateway.read(body)
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (StoreWriter) throws -> T) async throws(ProtocolError) -> T {
        try await gateway.write(body)
    }

    func runBlocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws(ProtocolError) -> T {
        try await gateway.runBlocking(work)
    }
}

/// Compares two digests in time independent of where they differ.
func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for i in a.indices { difference |= a[i] ^ b[i] }
    return difference == 0
}
