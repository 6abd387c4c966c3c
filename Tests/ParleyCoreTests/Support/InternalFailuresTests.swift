import Foundation
import ParleyProtocol
import ParleySync
import Testing
@testable import ParleyCore

/// A failure answered as `internal_error` reaches the reporter with its cause; the answers a
/// client can act on (a protocol error, a name taken) are not failures and are not reported.
@Suite(.serialized) struct InternalFailuresTests {
    @Test func aStoreFailureIsReportedWithItsCauseAndAnsweredAsInternalError() {
        let reports = PThreadMutex<[String]>([])
        InternalFailures.setReporter { cause in reports.withLock { $0.append(cause) } }
        defer { InternalFailures.setReporter { _ in } }
        let marker = "disk gone \(UUID().uuidString)"

        let answered = StoreGateway.translate(StoreError.failure(marker))
        #expect(answered.code == .internalError)
        #expect(reports.withLock { $0 }.contains { $0.contains(marker) })

        let before = reports.withLock { $0.count }
        #expect(StoreGateway.translate(ProtocolError(.notFound, "no such thing")).code == .notFound)
        #expect(StoreGateway.translate(StoreError.conflict("username")).code == .usernameTaken)
        #expect(reports.withLock { $0.count } == before)
    }
}
