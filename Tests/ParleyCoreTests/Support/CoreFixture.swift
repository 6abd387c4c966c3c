import CoreTestSupport
import Foundation
import ParleyCore
import ParleyProtocol
import ParleySQLite
import ParleySync

/// The messaging services over a real SQLite store in a temporary file, a recording delivery
/// and a clock the test sets: the core tested without sockets.
final class CoreFixture {
    let directory = NSTemporaryDirectory() + "parley-core-" + UUID().uuidString
    let store: SQLiteStore
    let delivery = RecordingDelivery()
    let clock = TestClock()
    let context: MessagingContext
    let social: SocialService
    let conversations: ConversationService
    let groups: GroupService
    let rooms: RoomService
    let presence: PresenceService

    init(rules: MessagingRules = MessagingRules()) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        store = try SQLiteStore(path: directory + "/core.sqlite")
        let clock = self.clock
        context = MessagingContext(store: store, blocking: InlineBlocking(), delivery: delivery, secrets: CountingSecrets(),
                                   rules: rules, clock: { clock.now })
        social = SocialService(context: context)
        conversations = ConversationService(context: context)
        groups = GroupService(context: context)
        rooms = RoomService(context: context)
        presence = PresenceService(context: context, rooms: rooms)
    }

    deinit {
        store.close()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A user straight in the store.
    func user(_ name: String) async throws -> UserID {
        try await store.write { try $0.insertUser(NewUser(username: name, passwordHash: nil, phone: nil, createdAt: 1)) }.id
    }

    /// Makes two users friends through the service; returns their conversation.
    func befriend(_ a: UserID, _ b: UserID) async throws -> ConversationID {
        let request = try await social.requestFriend(from: a, FriendRequestParameters(userId: b), connection: nil)
        let friend = try await social.accept(try unwrapped(request.request?.id), by: b)
        return friend.conversationId
    }
}

struct MissingValue: Error {}

func unwrapped<T>(_ value: T?) throws -> T {
    guard let value else { throw MissingValue() }
    return value
}
