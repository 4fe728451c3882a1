import Synchronization

/// A one-shot latch: `wait()` suspends until `open()` (no sleeping, no clocks).
actor Gate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters = []
    }
}

/// A thread-safe call counter.
final class Counter: Sendable {
    private let storage = Atomic<Int>(0)

    @discardableResult
    func increment() -> Int { storage.wrappingAdd(1, ordering: .relaxed).newValue }

    var value: Int { storage.load(ordering: .relaxed) }
}

/// Waits until `condition` holds, up to 10 s of wall time (so a broken test fails instead of hanging, and a
/// loaded machine gets the time it needs): first by yielding (conditions other tasks set), then checking
/// every millisecond (conditions other threads set: curl's engine, an origin, URLSession).
func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<1_000 {
        if condition() { return true }
        await Task.yield()
    }
    let deadline = ContinuousClock.now + .seconds(10)
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return condition()
}

/// A value shared between a test and callbacks on other threads.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }

    var value: Value { mutex.withLock { $0 } }

    func update(_ body: (inout Value) -> Void) { mutex.withLock { body(&$0) } }
}
