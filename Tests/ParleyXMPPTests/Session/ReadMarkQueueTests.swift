import ParleyProtocol
import Testing
@testable import ParleyXMPP

@Suite struct ReadMarkQueueTests {
    let a = ConversationID(rawValue: 7)
    let b = ConversationID(rawValue: 9)

    @Test func theFirstDeliveryStartsADrainAndLaterOnesJoinIt() {
        var queue = ReadMarkQueue()
        let first = queue.offer(a, seq: 2)
        #expect(first)
        #expect(queue.draining)
        let again = queue.offer(a, seq: 3)
        let other = queue.offer(b, seq: 5)
        #expect(!again && !other)
    }

    @Test func deliveriesWhileAMoveIsInFlightCoalesceToTheNewestPerConversation() {
        var queue = ReadMarkQueue()
        _ = queue.offer(a, seq: 2)
        let first = queue.next()
        #expect(first?.conversation == a && first?.seq == 2)
        // the move to 2 is in flight; three more arrive in a, one in b, one older in a
        _ = queue.offer(a, seq: 3)
        _ = queue.offer(b, seq: 10)
        _ = queue.offer(a, seq: 5)
        _ = queue.offer(a, seq: 4)
        let second = queue.next()
        let third = queue.next()
        #expect(second?.conversation == a && second?.seq == 5)
        #expect(third?.conversation == b && third?.seq == 10)
        let last = queue.next()
        #expect(last == nil)
    }

    @Test func anEmptyQueueEndsTheDrainSoTheNextDeliveryStartsAnother() {
        var queue = ReadMarkQueue()
        _ = queue.offer(a, seq: 1)
        _ = queue.next()
        #expect(queue.draining)
        let empty = queue.next()
        #expect(empty == nil)
        #expect(!queue.draining)
        let restarted = queue.offer(b, seq: 1)
        #expect(restarted)
        let mark = queue.next()
        #expect(mark?.conversation == b && mark?.seq == 1)
    }
}
