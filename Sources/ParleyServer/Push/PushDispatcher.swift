import Foundation
import ParleyCore
import ParleyNet
import ParleyProtocol
import ParleySync

/// Push notifications for members who are away: no connection, or every connection in the
/// background (`client.state`). Told of each new message on the sender's loop, it only
/// counts the message into the `PushCoalescer` there; after the coalescing window a task on
/// Swift's global executor (never an event loop) reads what the notification needs, applies
/// the mute and the per-user limit, and sends to each of the user's targets with retries.
/// A slow or dead push service so delays nothing but its own pushes.
///
/// In a cluster the server that stored a message decides and sends its pushes, so each
/// push goes out once; a user connected to another server counts as present.
final class PushDispatcher: MessageNotifying {
    struct Settings: Sendable {
        var coalesceWindow: Duration
        var retries: Int
        var maxQueued: Int
        var contact: String
        var defaultGatewayURL: String
    }

    private let store: any Store
    private let hub: ConnectionHub
    private let delivery: any Delivery
    let activity: ClientActivity
    private let coalescer: PushCoalescer
    private let sender: PushSender
    let vapid: VAPIDKey
    let metrics: PushMetrics
    let settings: Settings
    /// Users who had no push target when last looked at.
    let absent = AbsentTargets()
    private let logger: Logger
    private let clock: @Sendable () -> Int64

    init(store: any Store, hub: ConnectionHub, delivery: any Delivery, activity: ClientActivity, coalescer: PushCoalescer,
         sender: PushSender, vapid: VAPIDKey, metrics: PushMetrics, settings: Settings, logger: Logger,
         clock: @escaping @Sendable () -> Int64) {
        self.store = store
        self.hub = hub
        self.delivery = delivery
        self.activity = activity
        self.coalescer = coalescer
        self.sender = sender
        self.vapid = vapid
        self.metrics = metrics
        self.settings = settings
        self.logger = logger
        self.clock = clock
    }

    /// Whether `user` should hear of new messages by push.
    func isAway(_ user: UserID) -> Bool {
        let activity = self.activity
        return !hub.hasConnection(of: user, where: { !activity.isInactive($0) }) && !delivery.isOnlineElsewhere(user)
    }

    /// `isAway` for many users at once (the members a message goes to) but `except`, in their
    /// order: the hub and the activity are each asked once, not once a member, and the hub not
    /// at all when the message's delivery already found who has no connection here
    /// (`unconnectedHere`; nil: not known).
    func away(among users: [UserID], except: UserID?, unconnectedHere: [UserID]? = nil) -> [UserID] {
        Self.absentHere(among: users, except: except, unconnectedHere: unconnectedHere,
                        inactive: activity.inactiveTokens, hub: hub)
            .filter { !delivery.isOnlineElsewhere($0) }
    }

    /// The users among `users` but `except` with no connection on `hub` outside `inactive` (the
    /// connections in the background), in their order.
    static func absentHere(among users: [UserID], except: UserID?, unconnectedHere: [UserID]?,
                           inactive: Set<ConnectionToken>, hub: ConnectionHub) -> [UserID] {
        // While no connection is in the background every connection is active, so those the
        // delivery found unconnected are the answer, with no second lookup a member.
        if let unconnectedHere, inactive.isEmpty { return unconnectedHere.filter { $0 != except } }
        return hub.users(among: users, except: except, withNo: { inactive.isEmpty || !inactive.contains($0) })
    }

    // MARK: On the sender's loop

    /// Other notifiers told of every message and request first (the Jabber gateway's
    /// XEP-0357 push), which decide for themselves, with `isAway`.
    private let others = PThreadMutex<[any MessageNotifying]>([])

    /// Adds a notifier told of what this one is told.
    func also(_ notifier: any MessageNotifying) {
        others.withLock { $0.append(notifier) }
    }

    func stored(_ message: Message, for members: [UserID]) {
        stored(message, for: members, unconnectedHere: nil)
    }

    func stored(_ message: Message, for members: [UserID], unconnectedHere: [UserID]?) {
        for other in others.withLock({ $0 }) { other.stored(message, for: members) }
        // Of the notices, only a new friendship is news worth waking a phone for (joins and
        // renames are not), and not to the one whose act wrote it.
        let author = message.kind == .system ? message.system?.actor : message.sender
        if message.kind == .system {
            guard let type = message.system?.type, type == .friendAdded || type == .matched else { return }
        }
        let now = clock()
        for user in away(among: members, except: author, unconnectedHere: unconnectedHere) where !absent.contains(user, now: now) {
            guard metrics.queued.load(ordering: .relaxed) < settings.maxQueued else {
                metrics.add(.dropped)
                continue
            }
            switch coalescer.add(message, for: user) {
            case .opened:
                metrics.add(.queued)
                let conversation = message.conversationId
                let window = settings.coalesceWindow
                // Not the loop: a task made here would otherwise inherit the loop's preference.
                Task(executorPreference: globalConcurrentExecutor) { [self] in
                    try? await Task.sleep(for: window)
                    await flush(user, conversation)
                    metrics.add(.queued, -1)
                }
            case .coalesced:
                break
            case .refused:
                metrics.add(.dropped)
            }
        }
    }

    func requested(_ request: FriendRequest) {
        for other in others.withLock({ $0 }) { other.requested(request) }
        let user = request.to.id
        guard !absent.contains(user, now: clock()), isAway(user) else { return }
        guard metrics.queued.load(ordering: .relaxed) < settings.maxQueued else {
            metrics.add(.dropped)
            return
        }
        metrics.add(.queued)
        Task(executorPreference: globalConcurrentExecutor) { [self] in
            await notify(request)
            metrics.add(.queued, -1)
        }
    }

    // MARK: Off the loops

    /// A friend request: not coalesced (each is someone new), but within the user's limit.
    private func notify(_ request: FriendRequest) async {
        let user = request.to.id
        let found: ([StoredPushTarget], NotificationPreview)
        do {
            found = try await store.read { reader in (try reader.pushTargets(of: user), try reader.notificationPreview(of: user) ?? .full) }
        } catch {
            metrics.add(.failed)
            logger.warning("push: cannot read the store", ["user": .string(user.description), "error": .string("\(error)")])
            return
        }
        let (targets, preview) = found
        guard !targets.isEmpty else {
            absent.remember(user, now: clock())
            return
        }
        guard coalescer.admit(user, now: clock()) else {
            metrics.add(.dropped)
            return
        }
        let payload = PushPayload(type: "friend_request", sender: preview == .nothing ? nil : request.from.displayName,
                                  preview: preview == .full ? request.greeting : nil, count: 1, unread: 0, totalUnread: 0)
        await withTaskGroup(of: Void.self) { group in
            for target in targets {
                group.addTask { [self] in await send(payload, event: request.id, from: request.from.id, to: target) }
            }
        }
    }

    /// What a notification needs from the store, read in one snapshot.
    private struct Facts: Sendable {
        var targets: [StoredPushTarget]
        var mute: ConversationMute?
        var preview: NotificationPreview
        var senderName: String?
        var conversationName: String?
        var unread: Int64
        var totalUnread: Int64
    }

    private func flush(_ user: UserID, _ conversation: ConversationID) async {
        guard isAway(user) else {
            // Back meanwhile: they see the messages themselves.
            coalescer.discard(user, conversation)
            return
        }
        let facts: Facts
        do {
            facts = try await store.read { reader in try Self.facts(for: user, in: conversation, reader: reader) }
        } catch {
            coalescer.discard(user, conversation)
            metrics.add(.failed)
            logger.warning("push: cannot read the store", ["user": .string(user.description), "error": .string("\(error)")])
            return
        }
        let now = clock()
        guard !facts.targets.isEmpty else {
            coalescer.discard(user, conversation)
            absent.remember(user, now: now)
            return
        }
        let pending: PushCoalescer.Pending
        switch coalescer.take(user, conversation, now: now, allowedBy: facts.mute) {
        case .none, .muted: return
        case .dropped:
            metrics.add(.dropped)
            return
        case .send(let taken): pending = taken
        }
        let payload = PushPayload(type: pending.newest.system?.type.rawValue ?? "message", conversationId: conversation, seq: pending.newest.seq,
                                  sender: facts.preview == .nothing ? nil : facts.senderName,
                                  conversationName: facts.preview == .nothing ? nil : facts.conversationName,
                                  preview: facts.preview == .full ? Self.previewText(of: pending.newest) : nil,
                                  count: pending.count, unread: facts.unread, totalUnread: facts.totalUnread)
        await withTaskGroup(of: Void.self) { group in
            for target in facts.targets {
                group.addTask { [self] in
                    await send(payload, event: pending.newest.id, from: pending.newest.sender ?? pending.newest.system?.actor, to: target)
                }
            }
        }
    }

    private static func facts(for user: UserID, in conversation: ConversationID, reader: StoreReader) throws -> Facts {
        let targets = try reader.pushTargets(of: user)
        guard !targets.isEmpty, let stored = try reader.conversation(id: conversation) else {
            return Facts(targets: [], preview: .full, unread: 0, totalUnread: 0)
        }
        let marker = try reader.member(of: conversation, user: user)?.readSeq ?? stored.lastSeq
        var unread: Int64 = 0
        if marker < stored.lastSeq { unread = try reader.unreadCount(in: conversation, for: user, after: marker) }
        let newest = try reader.message(in: conversation, seq: stored.lastSeq)
        let senderName = try (newest?.sender ?? newest?.system?.actor).flatMap { try reader.user(id: $0) }?.profile.displayName
        return Facts(targets: targets, mute: try reader.conversationMutes(of: user)[conversation],
                     preview: try reader.notificationPreview(of: user) ?? .full, senderName: senderName,
                     conversationName: stored.kind == .group ? stored.name : nil,
                     unread: unread,
                     totalUnread: try reader.totalUnread(for: user))
    }

    /// The text a notification may show: the message's, clipped well inside one record.
    static func previewText(of message: Message) -> String? {
        switch message.kind {
        case .image: return "[image]"
        case .system: return nil
        default:
            let text = message.text ?? ""
            return text.unicodeScalars.count <= 200 ? text : String(String.UnicodeScalarView(text.unicodeScalars.prefix(200))) + "…"
        }
    }

    private func send(_ payload: PushPayload, event: String, from author: UserID?, to target: StoredPushTarget) async {
        let request: (url: URL, headers: HTTPHeaders, body: [UInt8])
        do {
            switch target.kind {
            case .webPush: request = try webPushRequest(payload, to: target)
            case .gateway: request = try gatewayRequest(payload, event: event, from: author, to: target)
            }
        } catch {
            metrics.add(.failed)
            logger.warning("push: cannot build the request", ["target": .string(target.id), "error": .string("\(error)")])
            return
        }
        var attempt = 0
        while true {
            let trusted = target.kind == .gateway && target.endpoint == settings.defaultGatewayURL
            let outcome = await sender.post(to: request.url, headers: request.headers, body: request.body, trusted: trusted)
            switch outcome {
            case .answered(let status, let body) where (200..<300).contains(status):
                metrics.add(.sent)
                if target.kind == .gateway { await dropRejected(body, of: target) }
                return
            case .answered(let status, _) where status == 404 || status == 410:
                // The subscription is gone for good (RFC 8030 §7.3): forget it.
                metrics.add(.failed)
                await forget(target, reason: "push service answered \(status)")
                return
            case .answered(let status, _) where status != 429 && status < 500:
                metrics.add(.failed)
                logger.warning("push refused", ["target": .string(target.id), "status": .int(status)])
                return
            case .refused(let reason):
                metrics.add(.failed)
                logger.warning("push refused", ["target": .string(target.id), "reason": .string(reason)])
                return
            default:
                guard attempt < settings.retries else {
                    metrics.add(.failed)
                    logger.warning("push failed", ["target": .string(target.id), "outcome": .string("\(outcome)")])
                    return
                }
                try? await Task.sleep(for: .seconds(1 << min(attempt, 10)))
                attempt += 1
            }
        }
    }

    private func webPushRequest(_ payload: PushPayload, to target: StoredPushTarget) throws -> (URL, HTTPHeaders, [UInt8]) {
        guard let url = URL(string: target.endpoint), let scheme = url.scheme, let host = url.host else {
            throw CryptoError("the endpoint is not a URL")
        }
        let body = try WebPushEncryption(p256dh: target.p256dh, auth: target.auth).encrypt(Array(try JSONEncoder().encode(payload)))
        let audience = scheme + "://" + host + (url.port.map { ":\($0)" } ?? "")
        // Twelve hours, half RFC 8292's most: a token is made for every push, so it never ages.
        let expiry = clock() / 1000 + 12 * 3600
        var headers: HTTPHeaders = [
            "Authorization": try vapid.authorization(audience: audience, expiresAt: expiry, subject: settings.contact),
            "Content-Encoding": "aes128gcm", "Content-Type": "application/octet-stream",
            "TTL": "86400", "Urgency": "high",
        ]
        // A newer push for the conversation replaces one the browser has not fetched yet.
        if let conversation = payload.conversationId { headers.replaceOrAdd(name: "Topic", value: "c" + conversation.description) }
        return (url, headers, body)
    }

    private func gatewayRequest(_ payload: PushPayload, event: String, from sender: UserID?,
                                to target: StoredPushTarget) throws -> (URL, HTTPHeaders, [UInt8]) {
        guard let url = URL(string: target.endpoint) else { throw CryptoError("the gateway URL is not a URL") }
        let notify = GatewayNotification(notification: .init(
            event_id: event, room_id: payload.conversationId?.description,
            type: payload.type == "message" ? "m.room.message" : "parley." + payload.type,
            sender: sender?.description, sender_display_name: payload.sender, room_name: payload.conversationName,
            content: payload.preview.map { .init(msgtype: "m.text", body: $0) },
            counts: .init(unread: payload.totalUnread), prio: "high",
            devices: [.init(app_id: target.appID, pushkey: target.pushkey, pushkey_ts: target.createdAt / 1000)]))
        return (url, ["Content-Type": "application/json"], Array(try JSONEncoder().encode(notify)))
    }

    /// A gateway's answer lists the push keys its platform refused: they will never work again.
    private func dropRejected(_ body: [UInt8], of target: StoredPushTarget) async {
        guard let answer = try? JSONDecoder().decode(GatewayAnswer.self, from: Data(body)),
              answer.rejected.contains(target.pushkey) else { return }
        await forget(target, reason: "the gateway rejected the push key")
    }

    private func forget(_ target: StoredPushTarget, reason: String) async {
        do {
            try await store.write { writer in try writer.deletePushTarget(kind: target.kind, address: target.address) }
            logger.info("push target removed", ["target": .string(target.id), "reason": .string(reason)])
        } catch {
            logger.warning("push: cannot remove a target", ["target": .string(target.id), "error": .string("\(error)")])
        }
    }
}
