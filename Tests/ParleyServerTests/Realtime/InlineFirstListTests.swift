import Testing
@testable import ParleyServer

@Suite struct InlineFirstListTests {
    @Test func appendsRemovesAndIteratesInOrder() {
        var list: InlineFirstList<Int> = []
        #expect(list.isEmpty && Array(list) == [])
        list.append(1)
        #expect(Array(list) == [1] && list.count == 1)
        list.append(2)
        list.append(3)
        #expect(Array(list) == [1, 2, 3] && list[2] == 3)
        list.remove(at: 0)
        #expect(Array(list) == [2, 3] && list.first == 2)
        list.remove(at: 1)
        #expect(Array(list) == [2])
        list.remove(at: 0)
        #expect(list.isEmpty)
        list.append(4)
        #expect(Array(list) == [4])
    }

    @Test func removeAllKeepsTheOthersInOrder() {
        var list: InlineFirstList<Int> = [1, 2, 3, 4, 5]
        list.removeAll { $0 % 2 == 1 }
        #expect(Array(list) == [2, 4])
        list.removeAll { $0 == 2 }
        #expect(Array(list) == [4])
        list.removeAll { $0 == 5 }
        #expect(Array(list) == [4])
        list.removeAll { _ in true }
        #expect(list.isEmpty && list.firstIndex(of: 4) == nil)
        var one: InlineFirstList<Int> = [7]
        one.removeAll { $0 == 7 }
        #expect(one.isEmpty)
    }

    @Test func visitsInPlaceInOrderAndStopsAtTheFirstMatch() {
        var empty: InlineFirstList<Int> = []
        #expect(!empty.containsInPlace { _ in true })
        var list: InlineFirstList<Int> = [1, 2, 3, 4]
        var seen: [Int] = []
        #expect(list.containsInPlace { value in seen.append(value); return value == 2 })
        #expect(seen == [1, 2], "it went on past the first match")
        #expect(!list.containsInPlace { $0 == 5 })
        seen = []
        list.forEachInPlace { seen.append($0) }
        #expect(seen == [1, 2, 3, 4])
        var one: InlineFirstList<Int> = [9]
        seen = []
        one.forEachInPlace { seen.append($0) }
        #expect(seen == [9])
        #expect(Array(list) == [1, 2, 3, 4] && Array(one) == [9])
    }

    @Test func updatesAnElementInPlaceAtEitherPosition() {
        var list: InlineFirstList<[Int]> = []
        list.append([1])
        list.reserveCapacity(4)
        list.update(at: 0) { $0.append(2) }
        list.append([3])
        list.update(at: 1) { $0.append(4) }
        #expect(Array(list) == [[1, 2], [3, 4]])
        #expect(list.update(at: 1) { $0.count } == 2)
    }
}
