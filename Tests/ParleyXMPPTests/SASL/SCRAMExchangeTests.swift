import ParleyNet
import Testing
@testable import ParleyXMPP

/// The exchanges published in RFC 5802 §5 (SHA-1) and RFC 7677 §3 (SHA-256): user "user",
/// password "pencil". What our code computes must be what the RFCs print.
@Suite struct SCRAMExchangeTests {
    struct Vector {
        var hash: SCRAMHash
        var clientFirst: String
        var serverNonce: String
        var salt: String
        var clientFinal: String
        var serverFinal: String
    }

    static let rfc5802 = Vector(
        hash: .sha1, clientFirst: "n,,n=user,r=fyko+d2lbbFgONRv9qkxdawL", serverNonce: "3rfcNHYJY1ZVvWVs7j",
        salt: "QSXCR+Q6sek8bf92",
        clientFinal: "c=biws,r=fyko+d2lbbFgONRv9qkxdawL3rfcNHYJY1ZVvWVs7j,p=v0X8v3Bz2T0CJGbJQyF0X+HI4Ts=",
        serverFinal: "v=rmF9pqV8S7suAoZWja4dJRkFsKQ=")

    static let rfc7677 = Vector(
        hash: .sha256, clientFirst: "n,,n=user,r=rOprNGfwEbeRWgbNEkqO", serverNonce: "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0",
        salt: "W22ZaJ0SNY7soEsUEjb6gQ==",
        clientFinal: "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=",
        serverFinal: "v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=")

    @Test(arguments: [rfc5802, rfc7677])
    func theRFCExchangeSucceedsWithThePublishedServerSignature(_ vector: Vector) throws {
        let salt = try #require(Base64.decode(vector.salt))
        let keys = vector.hash.credential(password: "pencil", salt: salt, iterations: 4096)
        let first = try SCRAMExchange.parseClientFirst(vector.clientFirst)
        #expect(first.username == "user" && first.gs2Header == "n,,")
        let exchange = SCRAMExchange(hash: vector.hash, clientFirst: first, salt: salt, iterations: 4096, serverNonce: vector.serverNonce)
        #expect(exchange.serverFirst == "r=\(first.clientNonce)\(vector.serverNonce),s=\(vector.salt),i=4096")
        #expect(try exchange.finish(vector.clientFinal, storedKey: keys.storedKey, serverKey: keys.serverKey) == vector.serverFinal)
    }

    @Test(arguments: [rfc5802, rfc7677])
    func aWrongPasswordIsNotAuthorized(_ vector: Vector) throws {
        let salt = try #require(Base64.decode(vector.salt))
        let keys = vector.hash.credential(password: "pencil!", salt: salt, iterations: 4096)
        let exchange = SCRAMExchange(hash: vector.hash, clientFirst: try SCRAMExchange.parseClientFirst(vector.clientFirst),
                                     salt: salt, iterations: 4096, serverNonce: vector.serverNonce)
        #expect(throws: SASLFailure(.notAuthorized, "wrong username or password")) {
            try exchange.finish(vector.clientFinal, storedKey: keys.storedKey, serverKey: keys.serverKey)
        }
    }

    @Test func aReplayedNonceOrBindingIsRefused() throws {
        let vector = Self.rfc7677
        let salt = try #require(Base64.decode(vector.salt))
        let keys = vector.hash.credential(password: "pencil", salt: salt, iterations: 4096)
        let exchange = SCRAMExchange(hash: vector.hash, clientFirst: try SCRAMExchange.parseClientFirst(vector.clientFirst),
                                     salt: salt, iterations: 4096, serverNonce: "another")
        #expect(throws: SASLFailure.self) { try exchange.finish(vector.clientFinal, storedKey: keys.storedKey, serverKey: keys.serverKey) }
    }

    @Test func clientFirstMessagesAreValidated() throws {
        #expect(try SCRAMExchange.parseClientFirst("n,,n=a=2Cb=3Dc,r=abc").username == "a,b=c")
        #expect(try SCRAMExchange.parseClientFirst("y,a=mei,n=mei,r=abc").gs2Header == "y,a=mei,")
        for bad in ["", "n,,", "x,,n=a,r=b", "n,,n=a", "n,,r=b", "n,,n=a=2Xb,r=c", "n,,m=ext,n=a,r=b", "p=tls-unique,,n=a,r=b", "n,a=other,n=mei,r=b"] {
            #expect(throws: SASLFailure.self, "\(bad)") { try SCRAMExchange.parseClientFirst(bad) }
        }
    }

    @Test func derivedCredentialsCoverBothMechanismsWithFreshSalts() {
        let credentials = SCRAMCredentialDeriver(iterations: 4096).derive(password: "pencil")
        #expect(credentials.map(\.mechanism) == ["SCRAM-SHA-1", "SCRAM-SHA-256"])
        #expect(credentials[0].salt != credentials[1].salt && credentials[0].salt.count == SCRAMCredentialDeriver.saltBytes)
        for credential in credentials {
            let hash = SCRAMHash(rawValue: credential.mechanism)!
            #expect(hash.credential(password: "pencil", salt: credential.salt, iterations: 4096)
                    == SCRAMHash.StoredKeys(storedKey: credential.storedKey, serverKey: credential.serverKey))
        }
    }

    @Test func plainDecodesAndChecksTheAuthorizationIdentity() throws {
        let plain = try SASLPlain(Array("\u{0}mei\u{0}secret pass".utf8), domain: "example.org")
        #expect(plain.username == "mei" && plain.password == "secret pass")
        #expect(try SASLPlain(Array("mei@example.org\u{0}mei\u{0}pw".utf8), domain: "example.org").username == "mei")
        #expect(throws: SASLFailure.self) { try SASLPlain(Array("bob\u{0}mei\u{0}pw".utf8), domain: "example.org") }
        #expect(throws: SASLFailure.self) { try SASLPlain(Array("mei\u{0}pw".utf8), domain: "example.org") }
        #expect(throws: SASLFailure.self) { try SASLPlain(Array("\u{0}\u{0}pw".utf8), domain: "example.org") }
    }
}
