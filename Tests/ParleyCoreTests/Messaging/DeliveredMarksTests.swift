import Testing
@testable import ParleyCore
import ParleyProtocol

/// The coalescing of delivered receipts: newest marker per key, never an older one after a
/// newer was told, one pass at a time.
struct DeliveredMarksTests {
    let conversation = ConversationID(7), ben = UserID(2), amy = UserID(1)

    @Test func aBurstIsToldAsItsNewestMarker() {
        let marks = DeliveredMarks()
        #expect(marks.note(3, in: conversation, to: ben, notify: amy))
        // A pass is running: later notes join it.
        #expect(!marks.note(5, in: conversation, to: ben, notify: amy))
        #expect(!marks.note(4, in: conversation, to: ben, notify: amy))
        let batch = marks.take()
        #expect(batch.count == 1)
        #expect(batch[DeliveredMarks.Key(conversation: conversation, user: ben)]?.seq == 5)
        #expect(marks.take().isEmpty)
    }

    @Test func anOlderMarkerArrivingAfterANewerOneWasToldIsDropped() {
        let marks = DeliveredMarks()
        #expect(marks.note(10, in: conversation, to: ben, notify: amy))
        _ = marks.take()
        #expect(marks.take().isEmpty)
        // The pass is over; a send that committed earlier finishes only now.
        #expect(!marks.note(9, in: conversation, to: ben, notify: amy))
        #expect(marks.take().isEmpty)
        #expect(marks.note(11, in: conversation, to: ben, notify: amy))
        #expect(marks.take()[DeliveredMarks.Key(conversation: conversation, user: ben)]?.seq == 11)
    }
}
