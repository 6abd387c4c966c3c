/// A closure to keep in a `PThreadMutex` (one set later than the mutex is made, then called
/// often). Stored bare, a closure in the mutex's generic `inout` storage is converted to the
/// caller's calling convention and back on every `withLock`, each time wrapped in two more
/// reabstraction thunks that stay: after n accesses a call runs through 2n thunks, and a
/// cluster node with 19,000 sign-ins spent most of its event loops' time in them. In a struct
/// the closure is stored once, as it is.
public struct SendableCallback<Argument>: Sendable {
    public let call: @Sendable (Argument) -> Void

    public init(_ call: @escaping @Sendable (Argument) -> Void) {
        self.call = call
    }
}
