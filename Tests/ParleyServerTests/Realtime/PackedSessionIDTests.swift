import ParleyCore
import ParleyProtocol
import Testing
@testable import ParleyServer

/// A signed-in WebSocket's session id, packed: the server's own ids inline, any other as
/// text, and never a different answer to "is this the same id?" than the texts give.
@Suite struct PackedSessionIDTests {
    @Test func theServersOwnIdsArePackedAndComeBackTheSame() throws {
        for _ in 0..<500 {
            let id = SodiumSecrets().identifier()
            let packed = PackedSessionID(id)
            guard case .random = packed else {
                Issue.record("\(id) was not packed")
                return
            }
            #expect(packed.string == id)
            #expect(packed.matches(id))
        }
        // Every character of the alphabet, and each of the four last characters whose padding
        // bits are zero.
        for id in ["AAAAAAAAAAAAAAAAAAAAAA", "_____________________w", "-_0123456789abcdefghiA", "zyxwvutsrqpABCDEFGHIJQ",
                   "0123456789abcdefghijkg", "KLMNOPRSTUVWXYZlmnoxyA"] {
            #expect(id.utf8.count == PackedSessionID.randomIDCharacters)
            #expect(PackedSessionID(id).string == id)
            #expect(PackedSessionID(id) != .text(id))
        }
    }

    @Test func otherIdsKeepTheirText() {
        // Too short, too long, padded, outside the alphabet, padding bits set (not the
        // canonical text of any 16 bytes), the password sign-in's id.
        let others = ["", "short", "AAAAAAAAAAAAAAAAAAAAAAA", "AAAAAAAAAAAAAAAAAAAA==", "AAAAAAAAAAAAAAAAAAAA+/",
                      "AAAAAAAAAAAAAAAAAAAAAB", "AAAAAAAAAAAAAAAAAAAAA_", "ÄAAAAAAAAAAAAAAAAAAAA", AuthenticatedSession.passwordSignIn]
        for id in others {
            #expect(PackedSessionID(id) == .text(id), "\(id)")
            #expect(PackedSessionID(id).string == id)
        }
    }

    @Test func onlyTheSameTextMatches() {
        let id = SodiumSecrets().identifier()
        let packed = PackedSessionID(id)
        #expect(packed.matches(id))
        #expect(!packed.matches(SodiumSecrets().identifier()))
        #expect(!packed.matches(String(id.dropLast()) + (id.last == "A" ? "Q" : "A")))
        #expect(!packed.matches(id + "A"))
        #expect(!PackedSessionID("custom-id").matches(id))
        #expect(PackedSessionID("custom-id").matches("custom-id"))
    }

    @Test func aSignedInSessionGivesTheServicesTheSameSession() {
        let session = AuthenticatedSession(userID: UserID(rawValue: 42), sessionID: SodiumSecrets().identifier())
        #expect(SignedInSession(session).authenticated == session)
        let other = AuthenticatedSession(userID: UserID(rawValue: 7), sessionID: "not-base64!")
        #expect(SignedInSession(other).authenticated == other)
    }
}
