import Testing
@testable import parley_bench

@Suite struct MessagingResultTests {
    @Test func deliveriesAndAcksCountAlwaysAndMeasureOnlyInsideTheWindow() {
        var result = MessagingResult()
        let window: Range<UInt64> = 1_000..<2_000
        // Sent before the window, arrived inside it: counted and in the window, not measured.
        result.recordDelivery(sentAt: 900, now: 1_100, window: window)
        // Sent and arrived inside: measured.
        result.recordDelivery(sentAt: 1_200, now: 1_500, window: window)
        // Sent inside, arrived after: measured, not in the window.
        result.recordDelivery(sentAt: 1_900, now: 2_400, window: window)
        #expect(result.delivered == 3)
        #expect(result.deliveredInWindow == 2)
        #expect(result.deliveryLatency.count == 2)
        #expect(result.deliveryLatency.min == 300)
        #expect(result.deliveryLatency.max == 500)

        result.recordAck(sentAt: 1_999, now: 2_000, window: window)
        result.recordAck(sentAt: 500, now: 999, window: window)
        #expect(result.acked == 2)
        #expect(result.ackedInWindow == 0)
        #expect(result.ackLatency.count == 1)
        #expect(result.ackLatency.max == 1)
        #expect(result.delivered == 3)
    }
}
