import Testing
@testable import ParleyServer

@Suite struct PasswordHasherTests {
    /// The cheapest costs libsodium allows, so the suite stays fast.
    private let fast: PasswordHasher

    init() throws {
        fast = try PasswordHasher(opsLimit: PasswordHasher.minimumOpsLimit, memoryLimit: PasswordHasher.minimumMemoryLimit)
    }

    @Test func verifiesTheRightPasswordOnly() throws {
        let hash = try fast.hash("correct horse battery staple")
        #expect(hash.hasPrefix("$argon2id$"))
        #expect(!hash.contains("correct horse"))
        #expect(fast.verify("correct horse battery staple", against: hash))
        #expect(!fast.verify("correct horse battery stapl", against: hash))
        #expect(!fast.verify("", against: hash))
    }

    @Test func saltsEveryHash() throws {
        let first = try fast.hash("same password")
        let second = try fast.hash("same password")
        #expect(first != second)
        #expect(fast.verify("same password", against: first))
        #expect(fast.verify("same password", against: second))
    }

    @Test func handlesEmptyAndUnicodePasswords() throws {
        let empty = try fast.hash("")
        #expect(fast.verify("", against: empty))
        #expect(!fast.verify(" ", against: empty))
        let unicode = try fast.hash("пароль 密码 🔑")
        #expect(fast.verify("пароль 密码 🔑", against: unicode))
        // Different normalisation is a different password: bytes are hashed as given.
        #expect(!fast.verify("e\u{301}", against: try fast.hash("\u{e9}")))
    }

    @Test func knowsWhenAHashNeedsUpgrading() throws {
        let cheap = try fast.hash("secret")
        #expect(!fast.needsRehash(cheap))
        let standard = PasswordHasher()
        #expect(standard.opsLimit == PasswordHasher.interactiveOpsLimit)
        #expect(standard.memoryLimit == PasswordHasher.interactiveMemoryLimit)
        #expect(standard.needsRehash(cheap))
        #expect(fast.needsRehash("not a hash"))
        #expect(fast.needsRehash(""))
        #expect(fast.needsRehash(String(repeating: "$argon2id$", count: 50)))
    }

    @Test func hashesWithTheInteractiveDefaults() throws {
        let standard = PasswordHasher()
        let hash = try standard.hash("a real password")
        #expect(hash.contains("m=65536"))
        #expect(standard.verify("a real password", against: hash))
        #expect(!standard.needsRehash(hash))
    }

    @Test func refusesOverlongPasswordsAndBadHashes() throws {
        let limited = try PasswordHasher(opsLimit: PasswordHasher.minimumOpsLimit,
                                         memoryLimit: PasswordHasher.minimumMemoryLimit,
                                         maximumPasswordBytes: 8)
        #expect(throws: PasswordHasherError.passwordTooLong(maximumBytes: 8)) { try limited.hash("123456789") }
        let hash = try limited.hash("12345678")
        #expect(!limited.verify("123456789", against: hash))
        #expect(!limited.verify("12345678", against: "garbage"))
        #expect(!limited.verify("12345678", against: ""))
        #expect(!limited.verify("12345678", against: hash + String(repeating: "A", count: 200)))
    }

    @Test func refusesCostsOutsideLibsodiumsLimits() {
        #expect(throws: PasswordHasherError.self) {
            try PasswordHasher(opsLimit: 0, memoryLimit: PasswordHasher.interactiveMemoryLimit)
        }
        #expect(throws: PasswordHasherError.self) {
            try PasswordHasher(opsLimit: PasswordHasher.interactiveOpsLimit, memoryLimit: 1024)
        }
    }
}
