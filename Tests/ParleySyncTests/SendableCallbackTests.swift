import ParleySync
import Testing

@Suite struct SendableCallbackTests {
    @Test func aCallbackInAMutexIsCalledWithItsArgumentEveryTime() {
        let seen = PThreadMutex<[Int]>([])
        let callback = PThreadMutex<SendableCallback<Int>?>(nil)
        #expect(callback.withLock { $0 } == nil)
        callback.withLock { $0 = SendableCallback { value in seen.withLock { $0.append(value) } } }
        for value in 0..<1_000 { callback.withLock { $0 }?.call(value) }
        #expect(seen.withLock { $0 } == Array(0..<1_000))
    }
}
