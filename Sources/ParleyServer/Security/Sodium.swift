import CSodium

/// libsodium's one-time set-up, shared by everything in `Security/`.
enum Sodium {
    /// Swift runs a static initialiser exactly once, atomically, on first use from whichever
    /// thread gets there first, so `sodium_init()` needs no lock of ours. (It is itself safe
    /// to call repeatedly; it returns 1 when already done.)
    private static let initialized: Bool = sodium_init() >= 0

    /// Makes sure libsodium is ready before it is used.
    ///
    /// `sodium_init()` fails only when the system cannot supply randomness at start-up; going
    /// on to hash passwords or issue tokens would then be unsafe, so this stops the process.
    static func ensureInitialized() {
        precondition(initialized, "libsodium failed to initialise (no system randomness?)")
    }
}
