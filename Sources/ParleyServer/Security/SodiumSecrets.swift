import ParleyCore

/// `SecretGenerating` on libsodium: random tokens, ids and codes, SHA-256 hashes.
struct SodiumSecrets: SecretGenerating {
    func token() -> String { SecureRandom.token(byteCount: 32) }
    func identifier() -> String { SecureRandom.token(byteCount: 16) }
    func numericCode(digits: Int) -> String { SecureRandom.numericCode(digits: digits) }
    func hash(_ secret: String) -> [UInt8] { TokenHash.sha256(Array(secret.utf8)) }
}

/// `PasswordHashing` on libsodium's argon2id.
struct SodiumPasswords: PasswordHashing {
    let hasher: PasswordHasher
    func hash(_ password: String) throws -> String { try hasher.hash(password) }
    func verify(_ password: String, against hash: String) -> Bool { hasher.verify(password, against: hash) }
}
