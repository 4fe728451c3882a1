import Synchronization

/// A thread-safe call counter.
public final class Counter: Sendable {
    private let storage = Atomic<Int>(0)

    public init() {}

    @discardableResult
    public func increment() -> Int { storage.wrappingAdd(1, ordering: .relaxed).newValue }

    public var value: Int { storage.load(ordering: .relaxed) }
}
