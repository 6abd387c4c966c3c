import Testing
@testable import ParleyNet

@Suite struct Base64Tests {
    // RFC 4648 §10.
    static let vectors: [(String, String)] = [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"),
        ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy"),
    ]

    @Test func encodesRFC4648Vectors() {
        for (plain, encoded) in Self.vectors {
            #expect(Base64.encode(Array(plain.utf8)) == encoded)
        }
    }

    @Test func decodesRFC4648Vectors() {
        for (plain, encoded) in Self.vectors {
            #expect(Base64.decode(encoded) == Array(plain.utf8))
        }
    }

    @Test func roundTripsEveryByteValue() {
        let bytes = (0...255).map { UInt8($0) }
        for count in 0...bytes.count {
            let slice = Array(bytes[..<count])
            #expect(Base64.decode(Base64.encode(slice)) == slice)
        }
        #expect(Base64.encode([0xFB, 0xFF]) == "+/8=")
    }

    @Test func rejectsMalformedText() {
        for bad in ["Zg", "Zg=", "Z===", "====", "Zm9v=", "Zm=v", "Zg==Zg==", "Zm9v!A==", "Zm9 v",
                    "Zh==", "Zm9=", " Zm9v", "Zm9v\n", "Zm-_"] {
            #expect(Base64.decode(bad) == nil, "\(bad)")
        }
    }

    @Test func websocketAcceptExample() {
        // RFC 6455 §1.3: the sample nonce, and its accept value.
        let key = "dGhlIHNhbXBsZSBub25jZQ=="
        #expect(Base64.decode(key)?.count == 16)
        let digest = SHA1.hash(Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8))
        #expect(Base64.encode(digest) == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }
}
