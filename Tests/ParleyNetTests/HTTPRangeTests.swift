import Testing
import ParleyNet

@Suite struct HTTPRangeTests {
    @Test(arguments: [
        (nil, HTTPRange.whole),
        ("bytes=0-99", .partial(offset: 0, length: 100)),
        ("bytes=10-19", .partial(offset: 10, length: 10)),
        ("bytes=990-", .partial(offset: 990, length: 10)),
        ("bytes=990-5000", .partial(offset: 990, length: 10)),
        ("bytes=-10", .partial(offset: 990, length: 10)),
        ("bytes=-5000", .whole),
        ("bytes=0-", .whole),
        ("bytes=0-999", .whole),
        ("BYTES = 1-1", .whole),
        ("Bytes=1-1", .partial(offset: 1, length: 1)),
        ("bytes= 5 - 6 ", .partial(offset: 5, length: 2)),
        ("bytes=1000-", .unsatisfiable),
        ("bytes=5000-6000", .unsatisfiable),
        ("bytes=-0", .unsatisfiable),
        ("bytes=0-1,5-6", .whole),
        ("bytes=5-4", .whole),
        ("bytes=a-b", .whole),
        ("bytes=-", .whole),
        ("items=0-1", .whole),
        ("bytes=99999999999999999999-", .whole),
    ] as [(String?, HTTPRange)])
    func rangesOfAThousandBytes(header: String?, expected: HTTPRange) {
        #expect(HTTPRange(header: header, length: 1000) == expected)
    }

    @Test func nothingOfAnEmptyBodyCanBeAskedFor() {
        #expect(HTTPRange(header: "bytes=0-", length: 0) == .unsatisfiable)
        #expect(HTTPRange(header: "bytes=-1", length: 0) == .unsatisfiable)
        #expect(HTTPRange(header: nil, length: 0) == .whole)
    }
}
