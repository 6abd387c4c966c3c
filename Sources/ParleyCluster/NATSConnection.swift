internal import CNATS
import ParleySync

/// One connection to a NATS server through libnats: publish, and subscriptions whose messages
/// arrive on libnats' delivery threads (never on an event loop). libnats reconnects by itself
/// (forever, `reconnectWait` apart) and renews the subscriptions; publications made while it
/// is away wait in its reconnect buffer.
///
/// `@unchecked Sendable`: libnats' connection is thread-safe (every call takes its own lock);
/// the Swift side's mutable state (the subscriptions) is behind `subscriptions`' mutex, and
/// `connection` is set once in `init` and destroyed only in `deinit`.
final class NATSConnection: @unchecked Sendable {
    /// A message handler: the subject and the payload. Runs on a libnats thread; must not block.
    typealias Handler = @Sendable (String, [UInt8]) -> Void

    /// Why a NATS call failed: libnats' status text.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// A handler kept alive for as long as libnats may call it (the pointer passed to libnats is
    /// this box, retained by `subscriptions`).
    private final class Box: Sendable {
        let handler: Handler
        init(_ handler: @escaping Handler) { self.handler = handler }
    }

    /// What libnats calls on connection changes (a disconnection or a reconnection).
    final class Events: Sendable {
        let disconnected: @Sendable () -> Void
        let reconnected: @Sendable () -> Void
        init(disconnected: @escaping @Sendable () -> Void, reconnected: @escaping @Sendable () -> Void) {
            self.disconnected = disconnected
            self.reconnected = reconnected
        }
    }

    private let connection: OpaquePointer
    private let events: Events
    /// The subscriptions' handlers by their libnats address (as a number: pointers are not
    /// Sendable), and whether `close` has run.
    private struct Subscriptions {
        var boxes: [UInt: Box] = [:]
        var closed = false
    }
    private let subscriptions = PThreadMutex(Subscriptions())

    /// Connects to `url` (`nats://host:port`, or several separated by commas). Throws if no
    /// server answers now: a node starts only with its cluster reachable.
    init(url: String, name: String, reconnectWait: Duration, events: Events) throws(Failure) {
        var options: OpaquePointer?
        try Self.check(natsOptions_Create(&options), "options")
        guard let options else { throw Failure(description: "natsOptions_Create returned nothing") }
        defer { natsOptions_Destroy(options) }
        // libnats takes a comma-separated list of servers here too.
        try Self.check(natsOptions_SetURL(options, url), "server URL")
        try Self.check(natsOptions_SetName(options, name), "name")
        try Self.check(natsOptions_SetAllowReconnect(options, true), "reconnect")
        // Negative: libnats retries forever; a node without NATS is degraded, not dead.
        try Self.check(natsOptions_SetMaxReconnect(options, -1), "max reconnect")
        try Self.check(natsOptions_SetReconnectWait(options, reconnectWait.milliseconds), "reconnect wait")
        // One shared pool of delivery threads instead of a thread per subscription.
        try Self.check(natsOptions_UseGlobalMessageDelivery(options, true), "global delivery")
        let retained = Unmanaged.passUnretained(events).toOpaque()
        try Self.check(natsOptions_SetDisconnectedCB(options, { _, closure in
            guard let closure else { return }
            Unmanaged<Events>.fromOpaque(closure).takeUnretainedValue().disconnected()
        }, retained), "disconnected handler")
        try Self.check(natsOptions_SetReconnectedCB(options, { _, closure in
            guard let closure else { return }
            Unmanaged<Events>.fromOpaque(closure).takeUnretainedValue().reconnected()
        }, retained), "reconnected handler")
        var connection: OpaquePointer?
        try Self.check(natsConnection_Connect(&connection, options), "connect to \(url)")
        guard let connection else { throw Failure(description: "natsConnection_Connect returned nothing") }
        self.connection = connection
        self.events = events
    }

    deinit {
        close()
        natsConnection_Destroy(connection)
    }

    /// Publishes `bytes` on `subject`. Does not wait for the network (libnats' flusher thread
    /// writes), so it may be called from an event loop.
    func publish(_ subject: String, _ bytes: [UInt8]) throws(Failure) {
        let status = bytes.withUnsafeBytes { raw in
            natsConnection_Publish(connection, subject, raw.baseAddress, Int32(raw.count))
        }
        try Self.check(status, "publish")
    }

    /// Subscribes; `handler` gets every message on `subject` (wildcards allowed) in the order
    /// the server delivered them.
    func subscribe(_ subject: String, _ handler: @escaping Handler) throws(Failure) {
        let box = Box(handler)
        var subscription: OpaquePointer?
        try Self.check(natsConnection_Subscribe(&subscription, connection, subject, { _, _, message, closure in
            guard let message else { return }
            defer { natsMsg_Destroy(message) }
            guard let closure else { return }
            let length = Int(natsMsg_GetDataLength(message))
            var bytes = [UInt8](repeating: 0, count: length)
            if length > 0, let data = natsMsg_GetData(message) {
                data.withMemoryRebound(to: UInt8.self, capacity: length) { source in
                    bytes.withUnsafeMutableBufferPointer { $0.baseAddress!.update(from: source, count: length) }
                }
            }
            let subject = natsMsg_GetSubject(message).map { String(cString: $0) } ?? ""
            Unmanaged<Box>.fromOpaque(closure).takeUnretainedValue().handler(subject, bytes)
        }, Unmanaged.passUnretained(box).toOpaque()), "subscribe to \(subject)")
        guard let subscription else { throw Failure(description: "natsConnection_Subscribe returned nothing") }
        let key = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(subscription)))
        subscriptions.withLock { $0.boxes[key] = box }
    }

    /// Waits (blocking, at most `timeout`) until the server has every publication so far. Only
    /// for shutdown, never on an event loop.
    func flush(timeout: Duration) {
        _ = natsConnection_FlushTimeout(connection, timeout.milliseconds)
    }

    /// Stops the subscriptions and closes the connection (idempotent). The handlers' boxes
    /// stay alive until `deinit`: a libnats delivery thread may still be running one.
    func close() {
        let open: [UInt] = subscriptions.withLock { table in
            guard !table.closed else { return [] }
            table.closed = true
            return Array(table.boxes.keys)
        }
        for key in open {
            guard let subscription = OpaquePointer(bitPattern: key) else { continue }
            natsSubscription_Unsubscribe(subscription)
            natsSubscription_Destroy(subscription)
        }
        natsConnection_Close(connection)
    }

    private static func check(_ status: natsStatus, _ what: String) throws(Failure) {
        guard status == NATS_OK else {
            let text = natsStatus_GetText(status).map { String(cString: $0) } ?? "status \(status.rawValue)"
            throw Failure(description: "NATS \(what): \(text)")
        }
    }
}

extension Duration {
    /// Whole milliseconds, for C APIs that take them.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
