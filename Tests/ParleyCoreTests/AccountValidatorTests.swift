import Testing
@testable import ParleyCore
import ParleyProtocol

@Suite struct AccountValidatorTests {
    let validator = AccountValidator(rules: AccountRules())

    @Test func usernameLengthBoundaries() throws {
        try validator.validateUsername("abc")
        try validator.validateUsername(String(repeating: "a", count: 32))
        #expect(throws: ProtocolError.self) { try validator.validateUsername("ab") }
        #expect(throws: ProtocolError.self) { try validator.validateUsername(String(repeating: "a", count: 33)) }
    }

    @Test func usernameCharacters() throws {
        try validator.validateUsername("Li.Wei_88-x")
        for bad in ["li wei", "李伟abc", "a/b/c", "ab\u{0}c", "abc!"] {
            #expect(throws: ProtocolError.self) { try validator.validateUsername(bad) }
        }
    }

    @Test func passwordBytes() throws {
        try validator.validatePassword("12345678")
        try validator.validatePassword(String(repeating: "x", count: 256))
        #expect(throws: ProtocolError.self) { try validator.validatePassword("1234567") }
        #expect(throws: ProtocolError.self) { try validator.validatePassword(String(repeating: "x", count: 257)) }
        // 86 three-byte characters are 258 bytes: over the limit though only 86 characters.
        #expect(throws: ProtocolError.self) { try validator.validatePassword(String(repeating: "密", count: 86)) }
    }

    @Test func phoneNormalization() throws {
        #expect(try validator.normalizePhone("13800138000") == "+8613800138000")
        #expect(try validator.normalizePhone("138-0013-8000") == "+8613800138000")
        #expect(try validator.normalizePhone("+4915112345678") == "+4915112345678")
        for bad in ["1380013800", "23800138000", "+0123456789", "+12", "phone", "+1234567890123456", ""] {
            #expect(throws: ProtocolError.self, "\(bad)") { try validator.normalizePhone(bad) }
        }
    }

    @Test func codeShape() throws {
        try validator.validateCode("123456")
        #expect(throws: ProtocolError.self) { try validator.validateCode("12345") }
        #expect(throws: ProtocolError.self) { try validator.validateCode("12345a") }
    }

    @Test func profileFields() throws {
        try validator.validate(ProfileUpdate(nickname: .set(String(repeating: "名", count: 32)), avatar: .set("https://example.org/a.png"),
                                             signature: .set(""), age: .set(30), hobbies: .set(["go", "swim"])))
        try validator.validate(ProfileUpdate(avatar: .set("/v1/media/abc_DEF-1")))
        let bad: [(ProfileUpdate, String)] = [
            (ProfileUpdate(nickname: .set(String(repeating: "n", count: 33))), "nickname"),
            (ProfileUpdate(signature: .set(String(repeating: "s", count: 201))), "signature"),
            (ProfileUpdate(avatar: .set("javascript:alert(1)")), "avatar"),
            (ProfileUpdate(avatar: .set("/v1/media/../../etc")), "avatar"),
            (ProfileUpdate(age: .set(0)), "age"),
            (ProfileUpdate(hobbies: .set(Array(repeating: "x", count: 11))), "hobbies"),
            (ProfileUpdate(hobbies: .set([""])), "hobbies"),
            (ProfileUpdate(username: .clear), "username"),
        ]
        for (update, field) in bad {
            #expect(performing: { try validator.validate(update) }, throws: { ($0 as? ProtocolError)?.field == field })
        }
    }
}
