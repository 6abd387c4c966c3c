import CSodium

/// Hashes and verifies passwords with argon2id (libsodium's `crypto_pwhash_str` family).
///
/// The hash is a self-describing string (`$argon2id$v=19$m=65536,t=2,p=1$salt$hash`) holding
/// a fresh random salt and the costs used, so hashes made with older costs still verify and
/// `needsRehash` can tell when to upgrade them after a successful login.
///
/// Hashing and verifying are deliberately slow and memory-hungry (the interactive defaults
/// take about 64 MiB and tens of milliseconds per call): callers must run them on the
/// blocking pool, never on an event loop, and bound how many run at once, since each one
/// holds `memoryLimit` bytes while it runs. Passwords are never logged, not even in errors.
public struct PasswordHasher: Sendable {
    /// libsodium's interactive argon2id time cost (passes over memory).
    public static let interactiveOpsLimit = Int(crypto_pwhash_argon2id_opslimit_interactive())
    /// libsodium's interactive argon2id memory cost, in bytes (64 MiB).
    public static let interactiveMemoryLimit = Int(crypto_pwhash_argon2id_memlimit_interactive())
    /// The smallest time cost libsodium accepts; for tests only.
    public static let minimumOpsLimit = Int(crypto_pwhash_argon2id_opslimit_min())
    /// The smallest memory cost libsodium accepts, in bytes; for tests only.
    public static let minimumMemoryLimit = Int(crypto_pwhash_argon2id_memlimit_min())
    /// The longest password accepted by default, in UTF-8 bytes. Callers enforce their own,
    /// smaller limit with a proper error code; this one only guards the hasher.
    public static let defaultMaximumPasswordBytes = 4096

    /// The argon2id time cost used for new hashes.
    public let opsLimit: Int
    /// The argon2id memory cost used for new hashes, in bytes.
    public let memoryLimit: Int
    /// The longest password accepted, in UTF-8 bytes.
    public let maximumPasswordBytes: Int

    /// A hasher with libsodium's interactive costs, suited to logins.
    public init() {
        opsLimit = Self.interactiveOpsLimit
        memoryLimit = Self.interactiveMemoryLimit
        maximumPasswordBytes = Self.defaultMaximumPasswordBytes
    }

    /// A hasher with the given costs, which must lie within libsodium's limits.
    public init(opsLimit: Int, memoryLimit: Int,
                maximumPasswordBytes: Int = PasswordHasher.defaultMaximumPasswordBytes) throws(PasswordHasherError) {
        let opsRange = Self.minimumOpsLimit...Int(clamping: crypto_pwhash_argon2id_opslimit_max())
        let memoryRange = Self.minimumMemoryLimit...Int(clamping: crypto_pwhash_argon2id_memlimit_max())
        guard opsRange.contains(opsLimit) else {
            throw .costOutOfRange(name: "opsLimit", value: opsLimit, allowed: opsRange)
        }
        guard memoryRange.contains(memoryLimit) else {
            throw .costOutOfRange(name: "memoryLimit", value: memoryLimit, allowed: memoryRange)
        }
        self.opsLimit = opsLimit
        self.memoryLimit = memoryLimit
        self.maximumPasswordBytes = max(0, maximumPasswordBytes)
    }

    /// A new argon2id hash of `password`, with a fresh random salt. Blocking work.
    public func hash(_ password: String) throws(PasswordHasherError) -> String {
        Sodium.ensureInitialized()
        guard password.utf8.count <= maximumPasswordBytes else {
            throw .passwordTooLong(maximumBytes: maximumPasswordBytes)
        }
        var output = [CChar](repeating: 0, count: crypto_pwhash_strbytes())
        let rc = withPasswordBytes(password) { bytes, count in
            crypto_pwhash_str_alg(&output, bytes, UInt64(count), UInt64(opsLimit), memoryLimit,
                                  crypto_pwhash_alg_argon2id13())
        }
        guard rc == 0 else { throw .hashingFailed }
        // libsodium NUL-terminates the hash within the buffer; the string is plain ASCII.
        return String(decoding: output.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `password` matches `hash`. False for a wrong password, a password over the
    /// length limit, or a malformed hash. Blocking work, as slow as hashing.
    public func verify(_ password: String, against hash: String) -> Bool {
        Sodium.ensureInitialized()
        guard password.utf8.count <= maximumPasswordBytes, isPlausibleHash(hash) else { return false }
        let rc = hash.withCString { storedHash in
            withPasswordBytes(password) { bytes, count in
                crypto_pwhash_str_verify(storedHash, bytes, UInt64(count))
            }
        }
        return rc == 0
    }

    /// Whether `hash` should be replaced by a new hash of the same password (done after a
    /// successful `verify`): true when it is not argon2id, was made with other costs than this
    /// hasher's, or cannot be read. Fast: nothing is hashed.
    public func needsRehash(_ hash: String) -> Bool {
        Sodium.ensureInitialized()
        guard hash.hasPrefix("$argon2id$"), isPlausibleHash(hash) else { return true }
        let rc = hash.withCString {
            crypto_pwhash_str_needs_rehash($0, UInt64(opsLimit), memoryLimit)
        }
        // 0: current; 1: other costs; -1: unreadable.
        return rc != 0
    }

    /// libsodium reads a stored hash as a NUL-terminated string of at most
    /// `crypto_pwhash_STRBYTES` bytes; anything longer (a damaged database row) is refused
    /// before it gets there.
    private func isPlausibleHash(_ hash: String) -> Bool {
        let count = hash.utf8.count
        return count > 0 && count < crypto_pwhash_strbytes()
    }

    /// Hands `body` the password's UTF-8 bytes and wipes that copy afterwards. Other copies
    /// (the `String` itself) cannot be wiped from Swift, so this only narrows the exposure.
    private func withPasswordBytes<R>(_ password: String, _ body: (UnsafePointer<CChar>, Int) -> R) -> R {
        var bytes = Array(password.utf8)
        let count = bytes.count
        // A trailing NUL keeps the buffer non-empty, so there is a valid pointer even for "".
        bytes.append(0)
        defer { bytes.withUnsafeMutableBytes { sodium_memzero($0.baseAddress, $0.count) } }
        return bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { characters in
                // The buffer holds at least the NUL, so its base address exists.
                guard let base = characters.baseAddress else { preconditionFailure("empty password buffer") }
                return body(base, count)
            }
        }
    }
}
