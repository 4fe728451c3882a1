/// A strict LRU map: dictionary from key to a slot in an array of nodes that form an intrusive
/// doubly-linked list (indices, not references). Front = most recently used.
///
/// - Complexity: O(1) lookup, touch, insert, remove and pop of the least recently used.
struct LRUList<Value> {
    struct Node {
        var key: String
        var value: Value?
        var cost: Int
        var weight: Int
        var previous: Int
        var next: Int
    }

    private(set) var nodes: [Node] = []
    private var slots: [String: Int] = [:]
    private var free: [Int] = []
    private var head = -1
    private var tail = -1
    /// Sum of the costs of all entries.
    private(set) var totalCost = 0
    /// Sum of the weights of all entries (a file store's index units, ``EntryMetadata/indexUnits``).
    private(set) var totalWeight = 0

    var count: Int { slots.count }

    /// Reserves room for `capacity` entries.
    mutating func reserveCapacity(_ capacity: Int) {
        slots.reserveCapacity(capacity)
        nodes.reserveCapacity(capacity)
    }

    /// The value for `key`, marking it most recently used.
    mutating func touch(_ key: String) -> Value? {
        guard let index = slots[key] else { return nil }
        moveToFront(index)
        return nodes[index].value
    }

    /// The value for `key` without changing the order.
    func peek(_ key: String) -> Value? {
        guard let index = slots[key] else { return nil }
        return nodes[index].value
    }

    /// Replaces the value of `key` without changing the order or the cost; false when `key` is absent.
    @discardableResult
    mutating func update(_ key: String, _ value: Value) -> Bool {
        guard let index = slots[key] else { return false }
        nodes[index].value = value
        return true
    }

    /// Inserts or replaces; the entry becomes most recently used. Returns the replaced value and its cost.
    /// - Parameter weight: what the entry counts for in ``totalWeight``. Default: 1.
    @discardableResult
    mutating func insert(_ key: String, _ value: Value, cost: Int, weight: Int = 1) -> (value: Value, cost: Int)? {
        if let index = slots[key] {
            let old = (nodes[index].value!, nodes[index].cost)
            nodes[index].value = value
            totalCost += cost - nodes[index].cost
            nodes[index].cost = cost
            totalWeight += weight - nodes[index].weight
            nodes[index].weight = weight
            moveToFront(index)
            return old
        }
        totalWeight += weight
        let node = Node(key: key, value: value, cost: cost, weight: weight, previous: -1, next: head)
        let index: Int
        if let reused = free.popLast() {
            index = reused
            nodes[index] = node
        } else {
            index = nodes.count
            nodes.append(node)
        }
        if head >= 0 { nodes[head].previous = index }
        head = index
        if tail < 0 { tail = index }
        slots[key] = index
        totalCost += cost
        return nil
    }

    /// Removes `key`; returns its value and cost.
    @discardableResult
    mutating func remove(_ key: String) -> (value: Value, cost: Int)? {
        guard let index = slots.removeValue(forKey: key) else { return nil }
        return release(index)
    }

    /// Removes and returns the least recently used entry.
    mutating func popLeastRecent() -> (key: String, value: Value, cost: Int)? {
        guard tail >= 0 else { return nil }
        let index = tail
        let key = nodes[index].key
        slots.removeValue(forKey: key)
        let (value, cost) = release(index)
        return (key, value, cost)
    }

    /// Keys and values, least recently used first.
    func leastRecentFirst() -> [(key: String, value: Value, cost: Int)] {
        var out: [(key: String, value: Value, cost: Int)] = []
        out.reserveCapacity(count)
        var index = tail
        while index >= 0 {
            out.append((nodes[index].key, nodes[index].value!, nodes[index].cost))
            index = nodes[index].previous
        }
        return out
    }

    private mutating func release(_ index: Int) -> (Value, Int) {
        unlink(index)
        let value = nodes[index].value!
        let cost = nodes[index].cost
        nodes[index].value = nil
        nodes[index].key = ""
        free.append(index)
        totalCost -= cost
        totalWeight -= nodes[index].weight
        return (value, cost)
    }

    private mutating func unlink(_ index: Int) {
        let previous = nodes[index].previous
        let next = nodes[index].next
        if previous >= 0 { nodes[previous].next = next } else { head = next }
        if next >= 0 { nodes[next].previous = previous } else { tail = previous }
        nodes[index].previous = -1
        nodes[index].next = -1
    }

    private mutating func moveToFront(_ index: Int) {
        guard head != index else { return }
        unlink(index)
        nodes[index].next = head
        if head >= 0 { nodes[head].previous = index }
        head = index
        if tail < 0 { tail = index }
    }
}
