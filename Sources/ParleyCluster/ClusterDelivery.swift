import Dispatch
import Foundation
public import ParleyCore
public import ParleyProtocol
import ParleySync

/// The core's `Delivery` for several servers ("nodes") sharing one database: local
/// recipients are served by this node's hub directly; recipients connected to other nodes
/// get the event through NATS, one publication per node that holds any of them, on that
/// node's subject `parley.node.<id>`. Who is where comes from every node's notices on
/// `parley.presence` (docs/architecture.md, "Cluster").
public final class ClusterDelivery: Delivery, ConnectionRegistry, Sendable {
    /// How often a node proves itself alive, how many missed heartbeats make the others give
    /// it up, and how often a heartbeat carries the full lists even when no node asked.
    public struct Timing: Sendable {
        public var heartbeat: Duration
        public var missedHeartbeats: Int
        /// Between these, heartbeats carry only a digest (a node that finds its copy differs
        /// asks for the lists at once); this repeats them regardless, as a last resort.
        public var fullBeat: Duration
        public init(heartbeat: Duration, missedHeartbeats: Int, fullBeat: Duration) {
            self.heartbeat = heartbeat
            self.missedHeartbeats = missedHeartbeats
            self.fullBeat = fullBeat
        }
    }

    /// When this node last sent its full lists, and whether a node asked for them since.
    private struct Beats {
        var lastFull: UInt64?
        var fullWanted = false
    }

    /// What the server does when the cluster's picture changes.
    public struct Handlers: Sendable {
        /// Another node's connections of the user changed.
        public var changed: @Sendable (UserID) -> Void
        /// A dead or stopped node's users, now connected nowhere; called on one node only.
        public var expired: @Sendable ([UserID]) -> Void
        /// A node stopped or was given up; true if this node acts for the cluster on it.
        public var lost: @Sendable (_ node: String, _ acts: Bool) -> Void
        /// Each heartbeat of the node that acts for the cluster (room occupants connected
        /// nowhere are swept then).
        public var acting: @Sendable () -> Void
        /// NATS came back after an outage: this node's users, to be announced again (a
        /// heartbeat later, once the other nodes' beats arrived).
        public var rejoined: @Sendable ([UserID]) -> Void
        public init(changed: @escaping @Sendable (UserID) -> Void, expired: @escaping @Sendable ([UserID]) -> Void,
                    lost: @escaping @Sendable (String, Bool) -> Void, acting: @escaping @Sendable () -> Void,
                    rejoined: @escaping @Sendable ([UserID]) -> Void) {
            self.changed = changed
            self.expired = expired
            self.lost = lost
            self.acting = acting
            self.rejoined = rejoined
        }
    }

    /// Subject of every node's presence notices.
    static let presenceSubject = "parley.presence"
    /// Subject of the events for users connected to `node`.
    static func nodeSubject(_ node: String) -> String { "parley.node.\(node)" }

    /// This node's id (logs, and the subject other nodes publish its events on).
    public let nodeID: String
    private let local: any LocalDelivery
    private let nats: NATSConnection
    private let timing: Timing
    private let log: @Sendable (String, [String: String]) -> Void
    private let directory: PThreadMutex<ClusterDirectory>
    private let handlers = PThreadMutex<Handlers?>(nil)
    private let beats = PThreadMutex(Beats())
    /// The rooms' occupants, shared with the other nodes (set by `start`).
    private let occupancy = PThreadMutex<RoomOccupancy?>(nil)
    /// Every notice of this node is composed and published here, one at a time, off every
    /// event loop and libnats thread: a beat's list (read from the hub) and an online/offline
    /// notice (composed from the hub's state when it runs) reach the other nodes in the order
    /// they were composed, so a beat never undoes a newer change, and an event loop reporting a
    /// change never waits for a beat of tens of thousands of users to be encoded.
    private let queue = DispatchQueue(label: "parley.cluster")
    /// Signalled to end the heartbeat thread (which runs heartbeats and expiry).
    private let stopped = DispatchSemaphore(value: 0)

    /// Connects to NATS at `url` and joins the cluster. Throws if NATS cannot be reached.
    public init(url: String, nodeID: String, local: any LocalDelivery, timing: Timing,
                log: @escaping @Sendable (String, [String: String]) -> Void) throws {
        self.nodeID = nodeID
        self.local = local
        self.timing = timing
        self.log = log
        directory = PThreadMutex(ClusterDirectory(me: nodeID))
        // The reconnection handler needs `self`, which exists only after the connection; the
        // box is filled right after.
        let reconnected = PThreadMutex<SendableCallback<Void>?>(nil)
        let events = NATSConnection.Events(
            disconnected: { log("cluster: NATS connection lost; libnats reconnects", ["node": nodeID]) },
            reconnected: { reconnected.withLock { $0 }?.call(()) })
        do {
            nats = try NATSConnection(url: url, name: "parley-\(nodeID)", reconnectWait: .milliseconds(500), events: events)
        } catch {
            throw ClusterError(message: error.description)
        }
        reconnected.withLock { $0 = SendableCallback { [weak self] in self?.rejoin() } }
        try subscribe()
    }

    deinit {
        stopped.signal()
    }

    /// Starts the heartbeats and says hello; `handlers` get the cluster's changes from now on,
    /// and `rooms` is shared with the other nodes.
    public func start(_ handlers: Handlers, rooms: RoomOccupancy) {
        self.handlers.withLock { $0 = handlers }
        occupancy.withLock { $0 = rooms }
        rooms.replicate { [weak self] change in self?.roomChanged(change) }
        send(ClusterNotice(node: nodeID, kind: .hello, users: []))
        let stopped = self.stopped
        let interval = Int(timing.heartbeat.milliseconds)
        Thread.detachNewThread { [weak self] in
            self?.tick()
            while stopped.wait(timeout: .now() + .milliseconds(interval)) == .timedOut {
                guard let self else { return }
                self.tick()
            }
        }
    }

    /// Leaves the cluster: the other nodes forget this node's users now instead of after
    /// the missed heartbeats.
    public func stop() {
        stopped.signal()
        // After the notices already queued, so none of them follows the goodbye.
        queue.sync { send(ClusterNotice(node: nodeID, kind: .bye, users: [])) }
        nats.flush(timeout: .seconds(1))
        nats.close()
    }

    /// The hub's report that `user`'s first connection came or last one went.
    public func localChange(_ user: UserID) {
        queue.async { [weak self] in
            guard let self else { return }
            // The hub's state now rather than the reported change: a change that raced this
            // report is told by its own report, and the last notice is always the truth.
            let online = self.local.isOnline(user)
            self.send(ClusterNotice(node: self.nodeID, kind: online ? .online : .offline, users: [user]))
        }
    }

    /// A room entry or leave made on this node, for the others. On the notice queue, like
    /// presence: a beat composed before the change is published before it.
    private func roomChanged(_ change: RoomOccupancy.Change) {
        queue.async { [weak self] in
            guard let self else { return }
            switch change {
            case .entered(let room, let user): self.send(ClusterNotice(node: self.nodeID, kind: .entered, users: [user], room: room))
            case .left(let room, let user): self.send(ClusterNotice(node: self.nodeID, kind: .left, users: [user], room: room))
            }
        }
    }

    // MARK: Delivery

    @discardableResult
    public func deliver(_ event: ServerEvent, to users: [UserID], excluding: ConnectionToken?) -> [UInt8]? {
        let encoded = local.deliver(event, to: users, excluding: excluding)
        return publishElsewhere(event, encoded: encoded, to: directory.withLock { $0.nodes(of: users) })
    }

    /// `deliver` that passes on what this node's hub found: who has no connection here.
    public func fanOut(_ event: ServerEvent, to users: [UserID], excluding: ConnectionToken?) -> FanOut {
        var fanOut = local.fanOut(event, to: users, excluding: excluding)
        fanOut.encoded = publishElsewhere(event, encoded: fanOut.encoded, to: directory.withLock { $0.nodes(of: users) })
        return fanOut
    }

    @discardableResult
    public func deliver(_ event: ServerEvent, to user: UserID, excluding: ConnectionToken?) -> [UInt8]? {
        let encoded = local.deliver(event, to: user, excluding: excluding)
        // The other nodes are looked up (an array of one) only for a user connected to one;
        // one lock for both.
        let remote = directory.withLock { $0.isOnline(user) ? $0.nodes(of: [user]) : [:] }
        return publishElsewhere(event, encoded: encoded, to: remote)
    }

    /// Sends an event delivered here to the users of it on `remote` nodes; returns `encoded`.
    private func publishElsewhere(_ event: ServerEvent, encoded: [UInt8]?, to remote: [String: [UserID]]) -> [UInt8]? {
        guard !remote.isEmpty else { return encoded }
        // `excluding` is not forwarded: a token names a connection of this node only. The
        // JSON the hub wrote is sent as it is.
        guard let body = encoded ?? event.dataJSON() else {
            log("cluster: event not encodable", ["event": event.name])
            return encoded
        }
        publish(event.name, body, to: remote)
        return encoded
    }

    // MARK: ConnectionRegistry

    public func add(_ receiver: any EventReceiver, for user: UserID) -> Bool {
        local.add(receiver, for: user)
    }

    public func remove(_ receiver: any EventReceiver, for user: UserID) -> Bool {
        local.remove(receiver, for: user)
    }

    public func closeConnections(of user: UserID, signedInWith sessionID: String) {
        local.closeConnections(of: user, signedInWith: sessionID)
        let remote = directory.withLock { $0.nodes(of: [user]) }
        guard !remote.isEmpty, let body = try? JSONEncoder().encode(ClosedSession(sessionId: sessionID)) else { return }
        publish(ClusterEventHeader.sessionClosed, Array(body), to: remote)
    }

    public func forward(_ stanza: ForwardedStanza, to users: [UserID], excluding: ConnectionToken?) {
        local.forward(stanza, to: users, excluding: excluding)
        let remote = directory.withLock { $0.nodes(of: users) }
        guard !remote.isEmpty, let body = try? JSONEncoder().encode(stanza) else { return }
        publish(ClusterEventHeader.forwardedStanza, Array(body), to: remote)
    }

    /// One publication per node: the header line, then `body`.
    private func publish(_ event: String, _ body: [UInt8], to remote: [String: [UserID]]) {
        for (node, recipients) in remote {
            guard let header = try? JSONEncoder().encode(ClusterEventHeader(node: nodeID, event: event, users: recipients)) else { continue }
            publish(Self.nodeSubject(node), Array(header) + [0x0A] + body)
        }
    }

    public func isOnline(_ user: UserID) -> Bool {
        local.isOnline(user) || isOnlineElsewhere(user)
    }

    public func isOnline(_ user: UserID, excluding: ConnectionToken?) -> Bool {
        local.isOnline(user, excluding: excluding) || isOnlineElsewhere(user)
    }

    /// Half a heartbeat: notices travel in milliseconds, and a beat's digest reveals what one
    /// missed (the full lists it then asks for follow in a round trip).
    public var presenceSettleTime: Duration { timing.heartbeat / 2 }

    public func isOnlineElsewhere(_ user: UserID) -> Bool {
        directory.withLock { $0.isOnline(user) }
    }

    // MARK: NATS

    private func subscribe() throws {
        do {
            try nats.subscribe(Self.nodeSubject(nodeID)) { [weak self] _, bytes in self?.received(event: bytes) }
            try nats.subscribe(Self.presenceSubject) { [weak self] _, bytes in self?.received(notice: bytes) }
        } catch {
            throw ClusterError(message: error.description)
        }
    }

    /// What another node handed over for users connected here (on a libnats thread; the hub
    /// hands the work to the event loops).
    private func received(event bytes: [UInt8]) {
        guard let newline = bytes.firstIndex(of: 0x0A),
              let header = try? JSONDecoder().decode(ClusterEventHeader.self, from: Data(bytes[..<newline])) else {
            log("cluster: unreadable event dropped", ["node": nodeID, "bytes": String(bytes.count)])
            return
        }
        let body = Data(bytes[(newline + 1)...])
        switch header.event {
        case ClusterEventHeader.forwardedStanza:
            guard let stanza = try? JSONDecoder().decode(ForwardedStanza.self, from: body) else { break }
            local.forward(stanza, to: header.users, excluding: nil)
            return
        case ClusterEventHeader.sessionClosed:
            guard let closed = try? JSONDecoder().decode(ClosedSession.self, from: body) else { break }
            for user in header.users { local.closeConnections(of: user, signedInWith: closed.sessionId) }
            return
        default:
            if let event = try? ServerEvent.decode(name: header.event, data: body) {
                local.deliver(event, to: header.users, excluding: nil)
                return
            }
        }
        log("cluster: unreadable event dropped", ["node": nodeID, "event": header.event])
    }

    private func received(notice bytes: [UInt8]) {
        guard let notice = try? JSONDecoder().decode(ClusterNotice.self, from: Data(bytes)) else {
            log("cluster: unreadable notice dropped", ["node": nodeID])
            return
        }
        guard notice.node != nodeID else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        let (changed, gone, acts) = directory.withLock { directory in
            let changed = directory.apply(notice, now: now)
            return (changed, notice.kind == .bye ? changed : [], directory.actsForCluster)
        }
        switch notice.kind {
        case .hello:
            // Someone new: tell them everything at once instead of at the next beat.
            sendFullBeat()
        case .ask where notice.peer == nodeID:
            sendFullBeat()
        case .digest:
            if let digest = notice.digest, digest != copy(of: notice.node) {
                send(ClusterNotice(node: nodeID, kind: .ask, users: [], peer: notice.node))
            }
        default:
            break
        }
        let handlers = self.handlers.withLock { $0 }
        applyRooms(notice)
        for user in changed { handlers?.changed(user) }
        if notice.kind == .bye { handlers?.lost(notice.node, acts) }
        settle(gone, acts: acts, handlers: handlers)
    }

    /// The room part of another node's notice.
    private func applyRooms(_ notice: ClusterNotice) {
        guard let rooms = occupancy.withLock({ $0 }) else { return }
        switch notice.kind {
        case .entered, .left:
            guard let room = notice.room else { return }
            for user in notice.users {
                rooms.apply(notice.kind == .entered ? .entered(room, user) : .left(room, user), from: notice.node)
            }
        case .beat:
            var table: RoomOccupancy.Table = [:]
            for entry in notice.rooms ?? [] { table[entry.room, default: []].formUnion(entry.users) }
            rooms.replace(table, of: notice.node)
        case .hello, .online, .offline, .bye, .digest, .ask:
            return
        }
    }

    /// The digest of what this node holds of `node`'s users and room entries.
    private func copy(of node: String) -> ClusterDigest {
        let users = directory.withLock { $0.usersDigest(of: node) }
        let rooms = occupancy.withLock { $0 }?.table(of: node) ?? [:]
        return ClusterDigest(users: users, rooms: ClusterDigest.rooms(rooms))
    }

    /// Every heartbeat: prove this node alive, give up the silent nodes.
    private func tick() {
        queue.async { [weak self] in self?.beat(onlyIfWanted: false) }
        let span = timing.heartbeat * timing.missedHeartbeats
        let now = DispatchTime.now().uptimeNanoseconds
        let deadline = now > UInt64(span.milliseconds) * 1_000_000 ? now - UInt64(span.milliseconds) * 1_000_000 : 0
        let (expired, acts) = directory.withLock { directory in
            (directory.expire(before: deadline), directory.actsForCluster)
        }
        let gone = expired.users
        if !expired.nodes.isEmpty {
            log("cluster: silent node given up", ["node": nodeID, "lost": expired.nodes.joined(separator: ","), "users": String(gone.count)])
        }
        let handlers = self.handlers.withLock { $0 }
        for user in gone { handlers?.changed(user) }
        for node in expired.nodes { handlers?.lost(node, acts) }
        settle(gone, acts: acts, handlers: handlers)
        if acts { handlers?.acting() }
    }

    /// Users a node lost without saying goodbye for each: those connected nowhere now go
    /// offline, announced by the one node that acts for the cluster.
    private func settle(_ gone: [UserID], acts: Bool, handlers: Handlers?) {
        let offline = gone.filter { !isOnline($0) }
        guard acts, !offline.isEmpty else { return }
        handlers?.expired(offline)
    }

    /// Sends this node's full lists soon: once, however many nodes ask before they go out.
    private func sendFullBeat() {
        let queued = beats.withLock { beats in
            defer { beats.fullWanted = true }
            return beats.fullWanted
        }
        guard !queued else { return }
        queue.async { [weak self] in self?.beat(onlyIfWanted: true) }
    }

    /// This node's heartbeat, on the notice queue only: the full lists when a node asked for
    /// them (or none were sent yet, or `Timing.fullBeat` has passed since), otherwise their
    /// digest; with `onlyIfWanted` (an answer to an ask), nothing unless the full lists are due,
    /// so asks that a heartbeat already answered cost nothing more.
    private func beat(onlyIfWanted: Bool) {
        let now = DispatchTime.now().uptimeNanoseconds
        let interval = UInt64(timing.fullBeat.milliseconds) * 1_000_000
        let beat: Beat = beats.withLock { beats in
            let due = beats.fullWanted || beats.lastFull.map { now &- $0 >= interval } ?? true
            guard due else { return onlyIfWanted ? .nothing : .digest }
            beats.fullWanted = false
            beats.lastFull = now
            return .fullLists
        }
        guard beat != .nothing else { return }
        let table = occupancy.withLock { $0 }?.localTable ?? [:]
        let users = local.connectedUsers
        if beat == .fullLists {
            let entries = table.map { RoomOccupants(room: $0.key, users: $0.value.sorted()) }
            send(ClusterNotice(node: nodeID, kind: .beat, users: users, rooms: entries))
        } else {
            send(ClusterNotice(node: nodeID, kind: .digest, users: [], digest: ClusterDigest(users: users, rooms: table)))
        }
    }

    /// What one call of `beat` sends.
    private enum Beat {
        /// Nothing: an ask that a heartbeat already answered.
        case nothing
        /// Every connected user and room entry (`ClusterNotice.Kind.beat`).
        case fullLists
        /// Their fingerprint only (`ClusterNotice.Kind.digest`).
        case digest
    }

    /// After a NATS outage: the others may have given this node up, and this node's picture
    /// is stale. Saying hello gets everyone's beats; this node's own beat follows.
    private func rejoin() {
        log("cluster: NATS reconnected", ["node": nodeID])
        send(ClusterNotice(node: nodeID, kind: .hello, users: []))
        sendFullBeat()
        // Others may have given this node up and told friends its users went offline (and
        // this node the same of theirs): once their beats are in, its users are announced again.
        queue.asyncAfter(deadline: .now() + .milliseconds(Int(timing.heartbeat.milliseconds))) { [weak self] in
            guard let self else { return }
            let users = self.local.connectedUsers
            self.log("cluster: announcing this node's users again", ["node": self.nodeID, "users": String(users.count)])
            self.handlers.withLock { $0 }?.rejoined(users)
        }
    }

    private func send(_ notice: ClusterNotice) {
        guard let bytes = try? JSONEncoder().encode(notice) else { return }
        publish(Self.presenceSubject, Array(bytes))
    }

    private func publish(_ subject: String, _ bytes: [UInt8]) {
        do {
            try nats.publish(subject, bytes)
        } catch {
            log("cluster: publish failed", ["node": nodeID, "subject": subject, "error": error.description])
        }
    }
}

/// The cluster could not be joined.
public struct ClusterError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
