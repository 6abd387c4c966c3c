public import ParleyProtocol

/// Durable state. Implementations run the closures on their own threads (never an event
/// loop): `write` closures of concurrent callers may share one transaction and one commit
/// (group commit), and one caller's failure undoes only its own changes. A `write` returns
/// only after the commit is durable.
///
/// Both run on the caller's executor up to the hand-off and resume there
/// (`nonisolated(nonsending)`): a session actor pinned to its event loop waits for a commit
/// without hopping off and back onto the loop around the call.
public protocol Store: Sendable {
    /// Runs `body` with read access to a consistent snapshot.
    nonisolated(nonsending) func read<T: Sendable>(_ body: @escaping @Sendable (StoreReader) throws -> T) async throws -> T
    /// Runs `body` in a transaction; returns after it is durably committed. `body` may run
    /// more than once (a batch run again after another write's failure, a deadlock retried):
    /// only the last run's result counts, so it must touch nothing but the store.
    nonisolated(nonsending) func write<T: Sendable>(_ body: @escaping @Sendable (StoreWriter) throws -> T) async throws -> T
    /// `write` for callers that are not tasks (an event loop): the same batch, commit and
    /// outcome, without a task or a continuation. `completion` runs once, on a writer thread
    /// after the commit (or at once, if the store is closed), so it must only hand the outcome
    /// on (queue it on the caller's loop): every other write waits while it runs.
    func write<T: Sendable>(_ body: @escaping @Sendable (StoreWriter) throws -> T,
                            completion: @escaping @Sendable (Result<T, any Error>) -> Void)
}

/// Queries. Every method throws only for storage failures; "not found" is nil or empty.
public protocol StoreReader: MessagingReader, MessageActionReader, PushReader, ReceiptReader, MessageSearchReader, UserSearchReader,
                             LastSeenReader, GovernanceReader, ModerationReader, PEPReader, MediaAccessReader {
    func user(id: UserID) throws -> StoredUser?
    /// Looks a username up without regard to case.
    func user(username: String) throws -> StoredUser?
    func user(phone: String) throws -> StoredUser?
    func session(tokenHash: [UInt8]) throws -> StoredSession?
    func sessions(of userID: UserID) throws -> [StoredSession]
    func media(id: String) throws -> StoredMedia?
    /// What `owner`'s uploads take in all, and since `since` (milliseconds).
    func mediaUsage(of owner: UserID, since: Int64) throws -> MediaUsage
    /// Uploads made before `createdBefore` that no message or avatar has used, oldest first.
    func unreferencedMedia(createdBefore: Int64, limit: Int) throws -> [StoredMedia]
    func smsChallenge(phone: String) throws -> SMSChallenge?
    /// When codes were sent to `phone` after `since` (milliseconds), oldest first.
    func smsSendTimes(phone: String, since: Int64) throws -> [Int64]
    /// The user's SCRAM credentials, one per mechanism; empty until the server has seen the
    /// password (registration, or a password sign-in of an older account).
    func scramCredentials(of userID: UserID) throws -> [StoredSCRAMCredential]
    /// The user's items of the XMPP gateway's per-user storage (private XML, XEP-0049, and
    /// roster annotations) whose keys start with `keyPrefix` ("" for all), by key.
    func xmppPrivateItems(of userID: UserID, keyPrefix: String) throws -> [String: String]
    /// Whether a deleted account's username (by the hash of its lowercased form) is still
    /// reserved at `time`.
    func isUsernameQuarantined(hash: [UInt8], at time: Int64) throws -> Bool
}

/// Changes, inside a transaction.
public protocol StoreWriter: StoreReader, MessagingWriter, MessageActionWriter, PushWriter, ReceiptWriter, UserSearchWriter,
                             LastSeenWriter, GovernanceWriter, ModerationWriter, PEPWriter, MediaAccessWriter {
    /// Inserts a user; throws `StoreError.conflict` if the username (any case) or phone is taken.
    func insertUser(_ user: NewUser) throws -> StoredUser
    /// Replaces the user's profile fields (all but id and createdAt); throws
    /// `StoreError.conflict` if the new username is taken.
    func updateUser(_ user: StoredUser) throws
    func insertSession(_ session: StoredSession) throws
    /// Removes the session if it belongs to `userID`; returns whether it did.
    func deleteSession(id: String, userID: UserID) throws -> Bool
    /// Removes every session of `userID` but `keeping` (nil: all of them); returns the ids
    /// removed, so their connections can be closed.
    func deleteSessions(of userID: UserID, keeping: String?) throws -> [String]
    /// Moves the session's last use forward to `time` (never back) and records `address`
    /// as its last address when one is given.
    func touchSession(id: String, at time: Int64, address: String?) throws
    func insertMedia(_ media: StoredMedia) throws
    /// Records that a message or avatar uses the upload (a no-op for an unknown id).
    func markMediaReferenced(id: String, at time: Int64) throws
    /// Removes an upload's record if nothing has used it yet; returns whether it did.
    func deleteUnreferencedMedia(id: String) throws -> Bool
    func saveSMSChallenge(_ challenge: SMSChallenge) throws
    func deleteSMSChallenge(phone: String) throws
    /// Records that a code was sent to `phone` at `time`, and forgets every number's sends at
    /// or before `forgetBefore` (they no longer count against any limit).
    func recordSMSSend(phone: String, at time: Int64, forgetBefore: Int64) throws
    /// Replaces all of the user's SCRAM credentials with `credentials`.
    func replaceSCRAMCredentials(of userID: UserID, with credentials: [StoredSCRAMCredential]) throws
    /// Sets (or with nil, removes) one item of the user's XMPP per-user storage.
    func setXMPPPrivateItem(of userID: UserID, key: String, value: String?) throws
    /// Erases everything personal of a user in this write, the one place that knows every
    /// table holding it (a new table of personal data adds its statement here): sessions,
    /// SCRAM credentials, friendships, friend requests, blocks, swipes, media records, the
    /// phone's SMS codes and sends; the user's row keeps only its id and dates, with
    /// `deleted_at` set. Messages stay (their sender shown as deleted), or lose their
    /// content with `erasingMessages`. Group memberships must be left first (ownership).
    func eraseUser(_ id: UserID, at time: Int64, erasingMessages: Bool) throws -> ErasedUser
    /// Reserves a deleted account's username (by hash) until `until`, forgetting reservations
    /// that ended at or before `now`.
    func quarantineUsername(hash: [UInt8], until: Int64, now: Int64) throws
}

/// A storage failure the core can act on.
public enum StoreError: Error, Equatable {
    /// A uniqueness rule was broken; `what` names it (e.g. `"username"`).
    case conflict(String)
    /// The storage failed; the message is for logs, not users.
    case failure(String)
}
