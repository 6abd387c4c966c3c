public import ParleyCore
public import ParleyProtocol
import ParleySync

/// The user's native (WebSocket) connections on this server as XMPP resources: each signed-in
/// session appears to Jabber contacts (and to the user's own Jabber clients) as a resource of
/// its own, named after its device (`resourceName(deviceName:sessionID:)`), available while
/// one of its connections is open and `away` while all of them told the server their app is
/// in the background (`client.state inactive`).
///
/// The native side (the WebSocket sessions) reports sign-ins, client states and closes; the
/// gateway (`XMPPServices`) observes the changes and broadcasts each resource's presence.
/// Local to the server like `XMPPResources`.
public final class NativeResources: Sendable {
    /// One native connection: the resource it is part of and whether its app is in front.
    private struct Connection: Sendable {
        var resource: String
        var active: Bool
    }

    private struct UserState: Sendable {
        /// The local part of the user's JID, known at sign-in.
        var local: String
        var connections: [ConnectionToken: Connection] = [:]
        /// The resources that sent the user's recent messages, by client id.
        var origins: RecentOrigins<String>

        init(local: String, originsKept: Int) {
            self.local = local
            origins = RecentOrigins(limit: originsKept)
        }
    }

    /// A native resource as it is now.
    public struct Resource: Sendable, Equatable {
        public var name: String
        /// False while every connection of the resource is in the background.
        public var active: Bool
    }

    private let users = PThreadMutex<[UserID: UserState]>([:])
    /// Which user each connection belongs to, for client-state changes (which name only the
    /// connection).
    private let owners = PThreadMutex<[ConnectionToken: UserID]>([:])
    private let observer = PThreadMutex<SendableCallback<Change>?>(nil)
    /// The user's available Jabber resources, from the gateway (none while it is off).
    private let jabber = PThreadMutex<JabberLookup?>(nil)

    /// A closure in a struct, for the reason `SendableCallback` gives.
    private struct JabberLookup: Sendable {
        let call: @Sendable (UserID) -> [ResourcePresence]
    }

    /// A resource of `user` (whose JID's local part is `local`) changed: it came, went, or its
    /// activity changed; `now` is its state (nil: gone).
    public struct Change: Sendable {
        public var user: UserID
        public var local: String
        public var resource: String
        public var now: Resource?
    }

    /// Characters of the device name kept in a resource name.
    static let maxDeviceCharacters = 40
    /// Bytes (UTF-8) of the device name kept in a resource name: 40 characters of emoji or
    /// combining marks stay well within a JID part's 1023 bytes (`JID.maxPartBytes`).
    static let maxDeviceBytes = 160

    /// Senders remembered per user (`--xmpp-receipts-kept`, as `XMPPResources` keeps).
    let originsKept: Int

    public init(originsKept: Int = 64) {
        self.originsKept = max(1, originsKept)
    }

    /// The resource a native session appears as: its device name as people wrote it, spaces
    /// and punctuation kept ("Bob's iPhone (2)"), without what a resource may not hold
    /// (`JID.isAllowedInResource`: control characters and the like), any other space a plain
    /// one, at most `maxDeviceCharacters` whole characters and `maxDeviceBytes` bytes (`parley`
    /// when nothing is left), then a dot and six characters of the session's id, so that two
    /// devices with the same name stay apart and a session keeps its name across reconnects.
    /// Clients show it without the dot and what follows (the tag holds no dot).
    public static func resourceName(deviceName: String?, sessionID: String) -> String {
        var kept = String.UnicodeScalarView()
        for scalar in (deviceName ?? "").unicodeScalars {
            if scalar.properties.isWhitespace {
                kept.append(" ")
            } else if JID.isAllowedInResource(scalar) {
                kept.append(scalar)
            }
        }
        var name = ""
        var characters = 0
        var bytes = 0
        for character in String(kept).trimmingWhitespace {
            let size = character.utf8.count
            guard characters < maxDeviceCharacters, bytes + size <= maxDeviceBytes else { break }
            name.append(character)
            characters += 1
            bytes += size
        }
        name = name.trimmingWhitespace
        let tag = String(sessionID.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil) }
            .prefix(6).map(Character.init)).lowercased()
        return (name.isEmpty ? "parley" : name) + "." + (tag.isEmpty ? "0" : tag)
    }

    /// Whether anyone hears of changes: false while the Jabber gateway is off, when the native
    /// side need not look up device names or report anything.
    public var isObserved: Bool {
        observer.withLock { $0 != nil }
    }

    /// Sets who hears of changes (the gateway).
    public func observe(_ observer: @escaping @Sendable (Change) -> Void) {
        self.observer.withLock { $0 = SendableCallback(observer) }
    }

    /// Sets where the user's available Jabber resources are read (the gateway).
    func lookUpJabber(_ lookup: @escaping @Sendable (UserID) -> [ResourcePresence]) {
        jabber.withLock { $0 = JabberLookup(call: lookup) }
    }

    /// The user's Jabber clients available on this server now, as the `presence.resource`
    /// events a native client that just signed in gets.
    public func jabberResources(of user: UserID) -> [ResourcePresence] {
        jabber.withLock { $0 }?.call(user) ?? []
    }

    /// A native connection signed in with the session `sessionID` of `user`.
    public func signedIn(_ user: UserID, local: String, token: ConnectionToken, sessionID: String, deviceName: String?) {
        let resource = Self.resourceName(deviceName: deviceName, sessionID: sessionID)
        owners.withLock { $0[token] = user }
        let change = users.withLock { table -> Change? in
            var state = table[user, default: UserState(local: local, originsKept: originsKept)]
            let before = Self.resource(resource, in: state)
            state.connections[token] = Connection(resource: resource, active: true)
            table[user] = state
            let after = Self.resource(resource, in: state)
            return before == after ? nil : Change(user: user, local: local, resource: resource, now: after)
        }
        if let change { notify(change) }
    }

    /// The connection told the server its app is in front (true) or in the background; a
    /// token that is no native connection here (an XMPP stream's) is ignored.
    public func clientState(_ token: ConnectionToken, active: Bool) {
        guard let user = owners.withLock({ $0[token] }) else { return }
        let change = users.withLock { table -> Change? in
            guard var state = table[user], let connection = state.connections[token], connection.active != active else { return nil }
            let before = Self.resource(connection.resource, in: state)
            state.connections[token]?.active = active
            table[user] = state
            let after = Self.resource(connection.resource, in: state)
            return before == after ? nil : Change(user: user, local: state.local, resource: connection.resource, now: after)
        }
        if let change { notify(change) }
    }

    /// The connection closed.
    public func closed(_ token: ConnectionToken) {
        guard let user = owners.withLock({ $0.removeValue(forKey: token) }) else { return }
        let change = users.withLock { table -> Change? in
            guard var state = table[user], let connection = state.connections[token] else { return nil }
            let before = Self.resource(connection.resource, in: state)
            state.connections[token] = nil
            table[user] = state.connections.isEmpty ? nil : state
            let after = Self.resource(connection.resource, in: state)
            return before == after ? nil : Change(user: user, local: state.local, resource: connection.resource, now: after)
        }
        if let change { notify(change) }
    }

    /// The connection is sending the user's message with `clientID` (before it is stored, so
    /// that its delivery finds it): XMPP recipients get it from the connection's resource.
    public func sending(_ user: UserID, clientID: String?, token: ConnectionToken) {
        guard let clientID else { return }
        users.withLock { table in
            guard let resource = table[user]?.connections[token]?.resource else { return }
            // in place, not copied out and back (`RecentOrigins` says why)
            table[user]?.origins.note(resource, for: clientID)
        }
    }

    /// The native resource that sent the user's message with `clientID`, if noted.
    func origin(of user: UserID, clientID: String?) -> String? {
        guard let clientID else { return nil }
        return users.withLock { $0[user]?.origins[clientID] }
    }

    /// The user's native resources here, by name.
    public func resources(of user: UserID) -> [Resource] {
        users.withLock { table in
            guard let state = table[user] else { return [] }
            return Set(state.connections.values.map(\.resource)).sorted().compactMap { Self.resource($0, in: state) }
        }
    }

    /// Every resource of the user available on this server now, native devices first, as
    /// `presence.resource` payloads (`user.resources`).
    public func presences(of user: UserID) -> [ResourcePresence] {
        resources(of: user).map { Self.presence($0.name, $0, of: user) } + jabberResources(of: user)
    }

    /// A native resource's state (nil: gone) as the `presence.resource` payload: `away` while
    /// its app is in the background.
    static func presence(_ name: String, _ now: Resource?, of user: UserID) -> ResourcePresence {
        ResourcePresence(resource: name, available: now != nil, show: now.map { $0.active ? nil : "away" } ?? nil, userId: user,
                         client: ResourcePresence.parleyClient)
    }

    /// A resource's state now, if it exists.
    public func resource(_ name: String, of user: UserID) -> Resource? {
        users.withLock { table in table[user].flatMap { Self.resource(name, in: $0) } }
    }

    /// Whether the user has a native connection on this server.
    public func hasResources(_ user: UserID) -> Bool {
        users.withLock { $0[user] != nil }
    }

    private static func resource(_ name: String, in state: UserState) -> Resource? {
        let connections = state.connections.values.filter { $0.resource == name }
        guard !connections.isEmpty else { return nil }
        return Resource(name: name, active: connections.contains(where: \.active))
    }

    private func notify(_ change: Change) {
        observer.withLock { $0 }?.call(change)
    }
}
