import CoreTestSupport
import Foundation
import ParleyCore
import ParleyProtocol
import Testing

/// `user.search` and `user.findable` through the core: the rate limit, the setting, bad prefixes.
@Suite struct UserSearchServiceTests {
    private func code(_ body: () async throws -> Void) async -> ErrorCode? {
        do {
            try await body()
            return nil
        } catch let error as ProtocolError {
            return error.code
        } catch {
            return nil
        }
    }

    @Test func findsByPrefixRespectsFindableAndIsRateLimited() async throws {
        var rules = MessagingRules()
        rules.userSearchesPerMinute = 3
        let core = try CoreFixture(rules: rules)
        let amy = try await core.user("amy"), ann = try await core.user("Anna"), bob = try await core.user("bob")
        let people = core.social.people
        #expect(try await people.search(for: bob, UserSearchParameters(prefix: "  A")).users.map(\.id) == [amy, ann])
        #expect(try await people.findable(for: ann, FindableSetting(findable: nil)) == FindableSetting(findable: true))
        #expect(try await people.findable(for: ann, FindableSetting(findable: false)) == FindableSetting(findable: false))
        #expect(try await people.findable(for: ann, FindableSetting(findable: nil)) == FindableSetting(findable: false))
        #expect(try await people.search(for: bob, UserSearchParameters(prefix: "an")).users.isEmpty)
        #expect(try await people.search(for: bob, UserSearchParameters(prefix: "a", limit: 1)).users.map(\.id) == [amy])
        // The fourth search within a minute is refused; a minute later it is allowed again.
        #expect(await code { _ = try await people.search(for: bob, UserSearchParameters(prefix: "a")) } == .rateLimited)
        #expect(try await people.search(for: amy, UserSearchParameters(prefix: "b")).users.map(\.id) == [bob], "per user")
        core.clock.advance(milliseconds: 60_001)
        #expect(try await people.search(for: bob, UserSearchParameters(prefix: "a")).users.map(\.id) == [amy])
        #expect(await code { _ = try await people.search(for: amy, UserSearchParameters(prefix: " ")) } == .invalidField)
        #expect(await code {
            _ = try await people.search(for: amy, UserSearchParameters(prefix: String(repeating: "a", count: 65)))
        } == .invalidField)
    }
}
