/// One measured step of `ws-echo` as the table shows it: the target rate, what came back,
/// the latency percentiles, the errors and the CPU each side used.
struct EchoStepReport {
    /// The target rate, messages per second over all clients.
    let rate: Double
    /// The loops' merged results.
    let result: EchoStepResult
    /// Echoes received inside the measured window, per second.
    let achieved: Double
    /// Lost, malformed and unsendable messages plus connections that closed during the step.
    let errors: Int
    /// The server's CPU use over the step, in percent of one core (nil without `--server-pid`).
    let serverCPU: Double?
    /// The bench's own CPU use over the step, in percent of one core.
    let benchCPU: Double

    /// The 99th percentile round trip.
    var p99: UInt64 { result.latency.value(atQuantile: 0.99) }

    /// Whether the step kept up: p99 within `bound`, at least 95 % of the rate echoed inside
    /// the window, and no errors.
    func held(p99Bound bound: UInt64) -> Bool {
        p99 <= bound && achieved >= rate * 0.95 && errors == 0
    }

    /// The table columns, in the order of `headers`.
    static let headers = ["rate", "messages/s", "p50", "p90", "p99", "p99.9", "max", "errors",
                          "send lag p99", "server CPU", "bench CPU"]

    /// The table row.
    var cells: [String] {
        let latency = result.latency
        return [Format.rate(rate), Format.rate(achieved),
                Format.latency(nanoseconds: latency.value(atQuantile: 0.5)),
                Format.latency(nanoseconds: latency.value(atQuantile: 0.9)),
                Format.latency(nanoseconds: p99),
                Format.latency(nanoseconds: latency.value(atQuantile: 0.999)),
                Format.latency(nanoseconds: latency.max),
                Format.count(errors),
                Format.latency(nanoseconds: result.sendLag.value(atQuantile: 0.99)),
                serverCPU.map(Format.percent) ?? "",
                Format.percent(benchCPU)]
    }

    /// One line for progress output.
    var summary: String {
        "rate \(Format.rate(rate))/s → \(Format.rate(achieved)) echoes/s, p99 \(Format.latency(nanoseconds: p99)), "
            + "errors \(errors) (lost \(max(0, result.outstanding)), bad \(result.badEchoes), unsendable \(result.unsendable))"
    }
}
