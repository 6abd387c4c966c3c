import CoreTestSupport
import Foundation
import ParleyCore
import ParleyProtocol
import Testing

/// Who may fetch an upload, decided by the core over a real SQLite store: the owner, the
/// members of every conversation a message carrying it went to (a forward included), a
/// room's current occupants, and anyone for an avatar; a removed member, someone who left
/// the room and an outsider are refused.
@Suite struct MediaAccessTests {
    private func image(_ core: CoreFixture, _ id: String, by owner: UserID) async throws {
        try await core.store.write { writer in
            try writer.insertMedia(StoredMedia(id: id, ownerID: owner, type: .png, width: 4, height: 3, size: 100, createdAt: 1))
        }
    }

    private func sendImage(_ core: CoreFixture, _ id: String, from user: UserID, in conversation: ConversationID) async throws -> Message {
        try await core.conversations.send(from: user, SendParameters(conversationId: conversation, clientId: "send-\(id)", kind: .image,
                                                                     mediaId: id), connection: nil).message
    }

    /// The error code of a check, nil when it passes.
    private func verdict(_ access: MediaAccess, _ id: String, _ user: UserID) async -> ErrorCode? {
        do {
            try await access.checkReadable(id, by: user)
            return nil
        } catch {
            return error.code
        }
    }

    @Test func theAuthorizationTable() async throws {
        let core = try CoreFixture()
        let access = MediaAccess(context: core.context, signer: MediaURLSigner(lifetimeSeconds: 60) { $0 })
        let amy = try await core.user("amy"), ben = try await core.user("ben"), cat = try await core.user("cat")
        let dan = try await core.user("dan"), eve = try await core.user("eve")
        let pair = try await core.befriend(amy, ben)
        let club = try await core.groups.create(by: amy, CreateParameters(name: "club")).id
        for member in [ben, cat, dan] { _ = try await core.groups.join(by: member, ConversationReference(conversationId: club)) }

        try await image(core, "inpair", by: amy)
        let inPair = try await sendImage(core, "inpair", from: amy, in: pair)
        try await image(core, "ingroup", by: amy)
        _ = try await sendImage(core, "ingroup", from: amy, in: club)
        // dan saw the group's picture while a member; removed, he may fetch it no more.
        try await core.groups.remove(by: amy, MemberReference(conversationId: club, userId: dan))
        // ben forwards the pair's picture to the group: its members may see it now.
        _ = try await core.conversations.actions.forward(
            by: ben, ForwardParameters(conversationId: pair, messageId: inPair.id, to: club, clientId: "fwd"), connection: nil)
        try await image(core, "draft", by: amy)
        try await image(core, "face", by: eve)
        _ = try await core.groups.create(by: eve, CreateParameters(name: "fans", avatar: "/v1/media/face"))
        try await image(core, "inroom", by: ben)
        let lobby = try await core.rooms.create(by: ben, CreateParameters(name: "lobby")).room.id
        _ = try await core.rooms.enter(by: amy, NameReference(name: "lobby"))
        _ = try await sendImage(core, "inroom", from: ben, in: lobby)

        let table: [(String, [UserID: ErrorCode?])] = [
            ("inpair", [amy: nil, ben: nil, cat: nil, dan: .forbidden, eve: .forbidden]),
            ("ingroup", [amy: nil, ben: nil, cat: nil, dan: .forbidden, eve: .forbidden]),
            ("draft", [amy: nil, ben: .forbidden, cat: .forbidden, dan: .forbidden, eve: .forbidden]),
            ("face", [amy: nil, ben: nil, cat: nil, dan: nil, eve: nil]),
            ("inroom", [amy: nil, ben: nil, cat: .forbidden, dan: .forbidden, eve: .forbidden]),
            ("nosuchupload", [amy: .notFound, eve: .notFound]),
            ("../etc/passwd", [amy: .notFound]),
        ]
        for (id, verdicts) in table {
            for (user, expected) in verdicts {
                #expect(await verdict(access, id, user) == expected, "\(id) for user \(user)")
            }
        }
        // Leaving the room ends access to what was sent there.
        try await core.rooms.leave(by: amy, ConversationReference(conversationId: lobby))
        #expect(await verdict(access, "inroom", amy) == .forbidden)
        #expect(await verdict(access, "inroom", ben) == nil)
    }

    @Test func aLinkIsMintedOnlyForWhoMayFetch() async throws {
        let core = try CoreFixture()
        let access = MediaAccess(context: core.context, signer: MediaURLSigner(lifetimeSeconds: 60) { Array($0.reversed()) })
        let amy = try await core.user("amy"), ben = try await core.user("ben"), eve = try await core.user("eve")
        let pair = try await core.befriend(amy, ben)
        try await image(core, "pic", by: amy)
        _ = try await sendImage(core, "pic", from: amy, in: pair)
        let link = try await access.url(for: ben, MediaURLParameters(mediaId: "pic"))
        #expect(link.mediaId == "pic" && link.url.hasPrefix("/v1/media/pic?exp="))
        #expect(link.expiresAt >= core.clock.now + 60_000)
        do {
            _ = try await access.url(for: eve, MediaURLParameters(mediaId: "pic"))
            Issue.record("an outsider got a link")
        } catch {
            #expect(error.code == .forbidden)
        }
    }
}
