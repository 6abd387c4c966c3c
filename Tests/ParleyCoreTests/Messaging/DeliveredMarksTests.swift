import Testing
@testable import ParleyCore
import ParleyProtocol

/// When delivered receipts are told: the first at once, a burst as its newest marker after
/// one window, never an older marker after a newer one.
struct DeliveredMarksTests {
    let conversation = ConversationID(7), ben = UserID(2), amy = UserID(1)
    let start = ContinuousClock.now

    @Test func theFirstIsToldAtOnceAndABurstAsItsNewestMarker() {
        let marks = DeliveredMarks(window: .milliseconds(100))
        #expect(marks.note(3, in: conversation, to: ben, notify: amy, now: start) == .tellNow)
        #expect(marks.note(4, in: conversation, to: ben, notify: amy, now: start + .milliseconds(10)) == .deferred(startFlush: true))
        #expect(marks.note(6, in: conversation, to: ben, notify: amy, now: start + .milliseconds(20)) == .deferred(startFlush: false))
        #expect(marks.note(5, in: conversation, to: ben, notify: amy, now: start + .milliseconds(30)) == .stale)
        let batch = marks.take(now: start + .milliseconds(110))
        #expect(batch.count == 1)
        #expect(batch[DeliveredMarks.Key(conversation: conversation, user: ben)]?.seq == 6)
        #expect(marks.take(now: start + .milliseconds(210)).isEmpty)
        // Long after the last one told: at once again.
        #expect(marks.note(7, in: conversation, to: ben, notify: amy, now: start + .seconds(1)) == .tellNow)
    }

    @Test func anOlderMarkerArrivingAfterANewerOneWasToldIsDropped() {
        let marks = DeliveredMarks(window: .milliseconds(100))
        #expect(marks.note(10, in: conversation, to: ben, notify: amy, now: start) == .tellNow)
        // A send that committed earlier finishes only now, well after the window.
        #expect(marks.note(9, in: conversation, to: ben, notify: amy, now: start + .milliseconds(500)) == .stale)
        #expect(marks.take(now: start + .milliseconds(600)).isEmpty)
    }

    @Test func conversationsAreToldApart() {
        let marks = DeliveredMarks(window: .milliseconds(100))
        #expect(marks.note(1, in: conversation, to: ben, notify: amy, now: start) == .tellNow)
        #expect(marks.note(1, in: ConversationID(8), to: ben, notify: amy, now: start) == .tellNow)
        #expect(marks.note(1, in: conversation, to: amy, notify: ben, now: start) == .tellNow)
    }
}
