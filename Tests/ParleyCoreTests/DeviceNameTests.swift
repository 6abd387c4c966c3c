import ParleyCore
import Testing

@Suite struct DeviceNameTests {
    @Test(arguments: [
        ("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36", "Chrome on Linux"),
        ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0", "Edge on Windows"),
        ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1", "Safari on iPhone"),
        ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36", "Chrome on Android"),
        ("Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:127.0) Gecko/20100101 Firefox/127.0", "Firefox on macOS"),
        ("parley-chat", "parley-chat"),
        ("ParleyKit/1.0", "ParleyKit"),
    ]) func derivedFromTheUserAgent(_ agent: String, _ expected: String) {
        #expect(DeviceName.derive(fromUserAgent: agent) == expected)
    }

    @Test func theClientsOwnNameWinsAndIsCleanedAndCut() {
        #expect(DeviceName.resolve(given: "  Work laptop\n", userAgent: "parley-chat", maxLength: 64) == "Work laptop")
        #expect(DeviceName.resolve(given: "   ", userAgent: "parley-chat", maxLength: 64) == "parley-chat")
        #expect(DeviceName.resolve(given: "abcdefgh", userAgent: nil, maxLength: 4) == "abcd")
        #expect(DeviceName.resolve(given: nil, userAgent: nil, maxLength: 64) == nil)
        #expect(DeviceName.resolve(given: nil, userAgent: "", maxLength: 64) == nil)
    }
}
