import Foundation
import Testing
@testable import ParleyProtocol

@Suite struct ProtocolCodingTests {
    let decoder = JSONDecoder()
    let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    @Test func userIDTravelsAsString() throws {
        let data = try encoder.encode([UserID(9_007_199_254_740_993)])
        #expect(String(decoding: data, as: UTF8.self) == "[\"9007199254740993\"]")
        #expect(try decoder.decode([UserID].self, from: data) == [UserID(9_007_199_254_740_993)])
        #expect(throws: DecodingError.self) { try decoder.decode([UserID].self, from: Data("[\"abc\"]".utf8)) }
        #expect(throws: DecodingError.self) { try decoder.decode([UserID].self, from: Data("[\"-3\"]".utf8)) }
    }

    @Test func displayNameRule() {
        let id = UserID(42)
        #expect(DisplayName.of(nickname: "Mei", username: "mei88", id: id) == "Mei")
        #expect(DisplayName.of(nickname: "", username: "mei88", id: id) == "mei88")
        #expect(DisplayName.of(nickname: nil, username: nil, id: id) == "ID: 42")
    }

    @Test func profileUpdateTellsAbsentFromNull() throws {
        let update = try decoder.decode(ProfileUpdate.self, from: Data(#"{"nickname":"Li","signature":null}"#.utf8))
        #expect(update.nickname == .set("Li"))
        #expect(update.signature == .clear)
        #expect(update.avatar == .unchanged)
        #expect(!update.isEmpty)
        let round = try decoder.decode(ProfileUpdate.self, from: encoder.encode(update))
        #expect(round == update)
        #expect(try decoder.decode(ProfileUpdate.self, from: Data("{}".utf8)).isEmpty)
    }

    @Test func accountEncodesFlat() throws {
        let account = Account(profile: UserProfile(id: UserID(7), username: "amy", createdAt: 1), phone: "+8613800138000")
        let json = String(decoding: try encoder.encode(account), as: UTF8.self)
        #expect(json == #"{"createdAt":1,"hobbies":[],"id":"7","phone":"+8613800138000","username":"amy"}"#)
        #expect(try decoder.decode(Account.self, from: Data(json.utf8)) == account)
    }

    @Test func requestEnvelopeAndData() throws {
        let bytes = Data(#"{"id":5,"op":"auth","data":{"token":"t"}}"#.utf8)
        let frame = try decoder.decode(RequestFrame.self, from: bytes)
        #expect(frame.id == .number(5))
        #expect(frame.op == "auth")
        #expect(try decoder.decode(RequestData<AuthParameters>.self, from: bytes).data.token == "t")
        let stringID = try decoder.decode(RequestFrame.self, from: Data(#"{"id":"a1","op":"x"}"#.utf8))
        #expect(stringID.id == .string("a1"))
    }

    @Test func errorCodesHaveStatusesAndSnakeCase() throws {
        for code in ErrorCode.allCases {
            #expect((400...599).contains(code.httpStatus))
            #expect(code.rawValue.allSatisfy { $0.isLowercase || $0 == "_" })
        }
        let body = ErrorBody(error: ProtocolError(.rateLimited, "slow down", retryAfterSeconds: 30))
        #expect(String(decoding: try encoder.encode(body), as: UTF8.self)
                == #"{"error":{"code":"rate_limited","message":"slow down","retryAfterSeconds":30}}"#)
    }
}
