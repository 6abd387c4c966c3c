import Testing
@testable import parley_bench

@Suite struct WrkReportTests {
    static let sample = """
        Running 10s test @ http://127.0.0.1:8080/healthz
          2 threads and 100 connections
          Thread Stats   Avg      Stdev     Max   +/- Stdev
            Latency     2.52ms    1.56ms  12.73ms   68.16%
            Req/Sec    19.90k     2.02k   27.07k    71.00%
          Latency Distribution
             50%  620.00us
             75%    3.41ms
             90%    4.64ms
             99%    1.20s
          198340 requests in 5.01s, 37.64MB read
          Socket errors: connect 0, read 2, write 0, timeout 3
          Non-2xx or 3xx responses: 7
        Requests/sec:  39562.06
        Transfer/sec:      7.51MB
        """

    @Test func parsesRateLatenciesAndErrors() throws {
        let report = try WrkReport(lines: Self.sample.split(separator: "\n").map(String.init))
        #expect(report.requestsPerSecond == 39562.06)
        #expect(report.percentiles[50] == 620_000)
        #expect(report.percentiles[90] == 4_640_000)
        #expect(report.percentiles[99] == 1_200_000_000)
        #expect(report.maxLatency == 12_730_000)
        #expect(report.errors == 12)
    }

    @Test func missingRateIsAnError() {
        #expect(throws: BenchError.self) { try WrkReport(lines: ["unable to connect to 127.0.0.1:1"]) }
    }
}
