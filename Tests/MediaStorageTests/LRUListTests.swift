@testable import MediaStorage
import Testing

@Suite struct LRUListTests {
    @Test func ordersLeastRecentFirstAndTouchMovesToFront() {
        var list = LRUList<Int>()
        list.insert("a", 1, cost: 10)
        list.insert("b", 2, cost: 20)
        list.insert("c", 3, cost: 30)
        #expect(list.touch("a") == 1)
        #expect(list.leastRecentFirst().map(\.key) == ["b", "c", "a"])
        #expect(list.totalCost == 60)
        #expect(list.popLeastRecent()?.key == "b")
        #expect(list.count == 2)
        #expect(list.totalCost == 40)
    }

    @Test func replaceUpdatesCostAndReusesFreedSlots() {
        var list = LRUList<Int>()
        list.insert("a", 1, cost: 10)
        list.insert("b", 2, cost: 20)
        let replaced = list.insert("a", 5, cost: 1)
        #expect(replaced?.value == 1)
        #expect(replaced?.cost == 10)
        #expect(list.totalCost == 21)
        #expect(list.remove("b")?.cost == 20)
        list.insert("c", 3, cost: 3)
        #expect(list.nodes.count == 2)
        #expect(list.leastRecentFirst().map(\.key) == ["a", "c"])
        #expect(list.remove("zz") == nil)
        #expect(list.peek("a") == 5)
    }
}

@Suite struct BufferPoolTests {
    @Test func reusesBuffersUpToTheLimit() {
        let pool = BufferPool(limit: 1, maximumByteCount: 1_024)
        let first = pool.withBuffer(count: 100) { buffer -> UnsafeMutableRawPointer? in
            #expect(buffer.count == 100)
            return buffer.baseAddress
        }
        let second = pool.withBuffer(count: 64) { $0.baseAddress }
        #expect(first == second)
        let large = pool.withBuffer(count: 4_096) { buffer -> Int in buffer.count }
        #expect(large == 4_096)
        let third = pool.withBuffer(count: 100) { $0.baseAddress }
        #expect(third == first)
    }
}
