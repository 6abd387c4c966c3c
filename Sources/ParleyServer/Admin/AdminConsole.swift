import Foundation
import ParleyCore
import ParleyNet
import ParleyProtocol

/// `parley admin` on the server's machine: the admin API's operations (and granting the role,
/// which nothing on the network can do) run straight on the data directory's store, with the
/// same core services and the same audit log as the HTTP API, written as the machine's
/// operator (no admin id).
///
/// `parley admin` uses it only when no server answers on the data directory's admin socket
/// (`AdminSocket`): from outside, a suspension could not close the user's open connections.
public final class AdminConsole: Sendable {
    private let opened: OpenedStore
    private let pool: BlockingPool
    let commands: AdminCommands

    public init(configuration: ServerConfiguration) throws {
        var quiet = configuration
        quiet.databaseReaders = 1
        opened = try ParleyServer.openStore(quiet, logger: Logger(label: "parley-admin", minimumLevel: .error))
        pool = BlockingPool(threadCount: 1, name: "parley-admin")
        let store = opened.store
        let blocking = PoolExecutor(pool: pool)
        let secrets = SodiumSecrets()
        let clock: WallClock = { Int64(Date().timeIntervalSince1970 * 1000) }
        var rules = AccountRules()
        rules.usernameQuarantineDays = configuration.usernameQuarantineDays
        rules.eraseMessagesOnDelete = configuration.eraseMessagesOnDelete == "yes"
        rules.text = configuration.textLimits
        let accounts = AccountService(store: store, passwords: SodiumPasswords(hasher: PasswordHasher()), secrets: secrets,
                                      sms: FileOutboxSender(path: configuration.dataDirectory + "/sms-outbox.jsonl", blocking: blocking),
                                      blocking: blocking, rules: rules, clock: clock)
        // Nobody is connected to this process: the hub delivers to no one, which is the truth.
        let hub = ConnectionHub()
        var messagingRules = MessagingRules()
        messagingRules.text = configuration.textLimits
        messagingRules.membershipCacheConversations = 0
        let messaging = MessagingContext(store: store, blocking: blocking, delivery: hub, secrets: secrets, rules: messagingRules,
                                         clock: clock, notifications: nil)
        let media = MediaService(store: store, files: try MediaDirectory(path: configuration.dataDirectory + "/media"),
                                 secrets: secrets, blocking: blocking, rules: configuration.mediaRules, clock: clock)
        let groups = GroupService(context: messaging)
        let deletion = AccountDeletionService(accounts: accounts, groups: groups, rooms: RoomService(context: messaging),
                                              context: messaging, media: media)
        let admin = AdminService(accounts: accounts, context: messaging, groups: groups, deletion: deletion,
                                 rules: configuration.moderationRules, registry: nil, localActor: AdminCommands.localActor(uid: getuid()))
        // Connections are the running server's; this process holds none.
        commands = AdminCommands(admin: admin, connections: { 0 }, backup: { destination in
            try AdminBackup.backup(configuration, to: destination)
        })
    }

    /// Closes the store and stops the console's thread.
    public func close() {
        opened.close()
        pool.shutdown()
    }

    /// Runs one command (`parley admin --help` lists them) and returns what to print.
    public func run(_ arguments: [String]) async throws -> String {
        try await commands.run(arguments)
    }
}

/// A refusal of `parley admin`, said in plain words.
public struct AdminConsoleError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
