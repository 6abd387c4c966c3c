import ParleyCore
import ParleyProtocol
import Testing
@testable import ParleyXMPP

/// XEP-0012 on a user's bare JID is Parley's last seen, under the same privacy rule.
@Suite struct LastActivityHandlerTests {
    private let query = XMLElement("query", namespace: Namespace.lastActivity)

    private func condition(_ body: () async throws -> Void) async -> String? {
        do {
            try await body()
            return nil
        } catch let error as StanzaError {
            return error.condition
        } catch let error as ProtocolError {
            return StanzaError(error).condition
        } catch {
            return "\(error)"
        }
    }

    @Test func aBareJIDAnswersSecondsSinceLastSeenOrForbiddenWhenHidden() async throws {
        let fixture = try HandlerFixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        // Never seen offline: nothing to tell.
        #expect(await condition {
            _ = try await fixture.answer("get", query, to: "alice@chat.test", me: bob, context: fixture.context())
        } == "item-not-found")

        await fixture.services.conversations.lastSeen.record(alice.user)
        let answer = try #require(try await fixture.answer("get", query, to: "alice@chat.test", me: bob, context: fixture.context()))
        #expect(answer.name == "query" && answer.namespace == Namespace.lastActivity)
        let seconds = try #require(answer["seconds"].flatMap { Int64($0) })
        // The fixture's clock stands still: at most the minute it was rounded down by.
        #expect(seconds >= 0 && seconds < 60)
        #expect(fixture.handlers.serverFeatures.contains(Namespace.lastActivity))

        // Shown to nobody: forbidden (they are not friends, so `friends` hides it as well).
        _ = try await fixture.services.conversations.setPrivacy(of: alice.user, PrivacySettings(lastSeen: .friends))
        #expect(await condition {
            _ = try await fixture.answer("get", query, to: "alice@chat.test", me: bob, context: fixture.context())
        } == "forbidden")
        // A friend sees it; the user themselves always does.
        _ = try await fixture.befriend(alice.user, bob.user)
        #expect(try await fixture.answer("get", query, to: "alice@chat.test", me: bob, context: fixture.context())?["seconds"] != nil)
        #expect(try await fixture.answer("get", query, to: "alice@chat.test", me: alice, context: fixture.context())?["seconds"] != nil)
        // Not a set, and not the server's uptime.
        #expect(await condition {
            _ = try await fixture.answer("set", query, to: "alice@chat.test", me: bob, context: fixture.context())
        } == "service-unavailable")
        #expect(await condition {
            _ = try await fixture.answer("get", query, to: "chat.test", me: bob, context: fixture.context())
        } == "service-unavailable")
    }
}
