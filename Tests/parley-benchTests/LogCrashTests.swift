import Foundation
import Glibc
import TestSupport
import Testing
@testable import parley_bench

/// The kill -9 test of both message log prototypes, short (30 cycles each; `make soak-log`
/// runs hundreds): a `parley-bench log-crash-child` process appending in bursts is killed at
/// random moments, and the log reopened here must hold every record it acknowledged,
/// gapless and byte for byte.
@Suite(.serialized) struct LogCrashTests {
    @Test(arguments: CrashEngine.allCases)
    func killNineAtRandomPointsLosesNothingAcknowledged(engine: CrashEngine) async throws {
        try await onOwnThread {
            let directory = NSTemporaryDirectory() + "parley-log-crash-test-" + UUID().uuidString
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let run = LogCrashRun(engine: engine, directory: directory, cycles: 30, executable: try BenchExecutable.path(),
                                  conversations: 20, threads: 3, burst: 6, killAfterMaxMilliseconds: 80, seed: 26)
            let report = run.run()
            #expect(report.failures.isEmpty, "\(report.failures.prefix(5))")
            #expect(report.cycles == 30)
            #expect(report.acknowledged > 0)
            // Records that were durable but not yet acknowledged may be there too; never fewer.
            #expect(report.records >= report.acknowledgedDistinct)
            #expect(report.acknowledgedDistinct > 0)
            // Every other cycle tore the segment log's tail; each tear was found and cut off.
            if engine == .segment { #expect(report.tornTails >= 15) }
        }
    }
}
