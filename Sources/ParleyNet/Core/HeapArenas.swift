import CParleySystem
import Synchronization

/// How many malloc arenas the process's threads allocate from. glibc gives a thread that
/// finds its arena busy a new one, up to 8 a core; each arena keeps its own free pieces, so a
/// burst of sign-ins spread over the loops and the task pool leaves half-used pages in each
/// of them, resident between the connections' long-lived objects. Fewer arenas reuse those
/// pieces instead (≈ 0.1–0.2 KiB less RSS an idle signed-in connection with one arena, no
/// measurable CPU cost on two cores: docs/benchmarks.md, section (w)).
public enum HeapArenas {
    private static let applied = Atomic<Int>(0)

    /// Allows at most `count` arenas from now on (arenas made before stay); 0 leaves glibc's
    /// default. Call before the threads start. Returns whether glibc took it.
    @discardableResult
    public static func limit(to count: Int) -> Bool {
        guard count > 0 else { return true }
        guard parley_limit_heap_arenas(Int32(clamping: count)) == 1 else { return false }
        applied.store(count, ordering: .relaxed)
        return true
    }

    /// The last limit taken (0: none); for tests and logs.
    public static var limit: Int { applied.load(ordering: .relaxed) }
}
