import ParleyCore
import ParleyNet

/// The core's `BlockingExecutor` on ParleyNet's blocking pool.
struct PoolExecutor: BlockingExecutor {
    let pool: BlockingPool

    func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await pool.run(work)
    }
}
