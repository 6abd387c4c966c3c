import Testing
@testable import parley_bench

@Suite struct LatencyHistogramTests {
    @Test func bucketsAreContiguousAndContainTheirValues() {
        var previous = -1
        for value in [0, 1, 63, 64, 127, 128, 129, 255, 256, 1_000, 65_535, 1_000_000, 123_456_789] as [UInt64] {
            let index = LatencyHistogram.index(of: value)
            #expect(index >= previous)
            #expect(LatencyHistogram.highestValue(ofIndex: index) >= value)
            if index > 0 { #expect(LatencyHistogram.highestValue(ofIndex: index - 1) < value) }
            previous = index
        }
        #expect(LatencyHistogram.index(of: .max) == LatencyHistogram.index(of: .max - 1))
    }

    @Test func percentilesAreWithinTheResolution() {
        var histogram = LatencyHistogram()
        for value in 1...100_000 as ClosedRange<UInt64> { histogram.record(value * 1_000) }
        for (quantile, expected) in [(0.5, 50_000_000.0), (0.99, 99_000_000.0), (0.999, 99_900_000.0)] {
            let reported = Double(histogram.value(atQuantile: quantile))
            #expect(reported >= expected && reported <= expected * (1 + 1.0 / 64))
        }
        #expect(histogram.value(atQuantile: 1) == 100_000_000)
        #expect(histogram.max == 100_000_000)
        #expect(histogram.min == 1_000)
        #expect(histogram.count == 100_000)
    }

    @Test func mergeAddsCounts() {
        var a = LatencyHistogram(), b = LatencyHistogram()
        a.record(10)
        b.record(1_000_000)
        b.record(20)
        a.merge(b)
        #expect(a.count == 3)
        #expect(a.max == 1_000_000)
        #expect(a.min == 10)
        #expect(a.value(atQuantile: 0.5) == 20)
    }

    @Test func emptyHistogramReportsZero() {
        let histogram = LatencyHistogram()
        #expect(histogram.value(atQuantile: 0.99) == 0)
        #expect(histogram.mean == 0)
    }
}
