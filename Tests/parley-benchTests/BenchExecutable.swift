import Foundation
import Testing
@testable import parley_bench

/// The `parley-bench` executable built beside the test binary, for tests that run it as a
/// child process (the kill -9 tests).
enum BenchExecutable {
    static func path() throws -> String {
        let own = try LogCrashCommand.ownExecutable()
        let path = (own as NSString).deletingLastPathComponent + "/parley-bench"
        try #require(FileManager.default.isExecutableFile(atPath: path), "build parley-bench first (swift build --build-tests)")
        return path
    }
}
