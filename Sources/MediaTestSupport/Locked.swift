import Synchronization

/// A value shared between a test and callbacks on other threads.
public final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    public init(_ value: Value) { mutex = Mutex(value) }

    public var value: Value { mutex.withLock { $0 } }

    public func update(_ body: (inout Value) -> Void) { mutex.withLock { body(&$0) } }
}
