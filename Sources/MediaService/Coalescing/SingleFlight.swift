import Synchronization

/// Coalesces concurrent calls for the same key into one in-flight async operation.
///
/// The first caller for a key (the *leader*) runs its operation; callers arriving while it runs
/// (*waiters*) suspend and then:
/// - receive the leader's value when `isShareable(value)` is true (role ``Role/joined``);
/// - run their own operation, uncoalesced, when it is false (role ``Role/ownOperation``): a
///   leader's `private`/`no-store`/credential-specific answer is never handed to anyone else;
/// - receive the leader's error when the operation throws, except `CancellationError` (the
///   leader's cancellation is its own, e.g. its client went away): then they call again for the key, so one of
///   them leads and the rest join it (never one operation each).
///
/// Keys decide who may share, so callers put the partition in the key: distinct keys never join.
/// Once the leader finishes, the key is free again; there is no result caching here.
/// A waiter whose own task is cancelled keeps waiting for the leader (the operation's transport
/// observes the leader's cancellation, not the waiters').
public final class SingleFlight<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// How a caller got its value.
    public enum Role: Hashable, Sendable {
        /// This caller ran the operation.
        case leader
        /// This caller received the leader's shareable value.
        case joined
        /// The leader's value was not shareable, so this caller
        /// ran its own operation.
        case ownOperation
    }

    /// The value and how it was obtained.
    public struct Outcome: Sendable {
        public let value: Value
        public let role: Role
    }

    enum Wake: Sendable {
        case lead
        case shared(Value)
        case runOwn
        /// The leader was cancelled: call again for the key.
        case retry
    }

    struct Flight: Sendable {
        var waiters: [CheckedContinuation<Wake, any Error>] = []
    }

    let flights = Mutex<[Key: Flight]>([:])

    public init() {}

    /// The number of keys with an operation in flight.
    public var inFlightCount: Int { flights.withLock { $0.count } }

    /// The number of callers waiting on the leader for `key` (0 when nothing is in flight).
    public func waiterCount(for key: Key) -> Int { flights.withLock { $0[key]?.waiters.count ?? 0 } }

    /// Runs `operation` for `key`, or joins the one in flight.
    /// - Parameters:
    ///   - key: what may be shared; include the cache partition.
    ///   - isShareable: whether the leader's value may be handed to waiters. Default: always.
    ///   - operation: the work; runs in the caller's task (leaders and ``Role/ownOperation``).
    /// - Returns: the value and this caller's ``Role``.
    /// - Throws: what the operation throws (a waiter rethrows the leader's error).
    public func run(
        _ key: Key,
        isolation: isolated (any Actor)? = #isolation,
        isShareable: (Value) -> Bool = { _ in true },
        operation: () async throws -> Value
    ) async throws -> Outcome {
        // Uncontended (the usual miss): lead at once, without a continuation or a suspension.
        let leadsAtOnce = flights.withLock { flights -> Bool in
            guard flights[key] == nil else { return false }
            flights[key] = Flight()
            return true
        }
        let wake: Wake
        if leadsAtOnce {
            wake = .lead
        } else {
            wake = try await withCheckedThrowingContinuation(isolation: isolation) { (continuation: CheckedContinuation<Wake, any Error>) in
                // The flight seen above may have finished meanwhile: then this caller leads.
                let isLeader = flights.withLock { flights -> Bool in
                    if flights[key] != nil {
                        flights[key]!.waiters.append(continuation)
                        return false
                    }
                    flights[key] = Flight()
                    return true
                }
                if isLeader { continuation.resume(returning: .lead) }
            }
        }
        switch wake {
        case .shared(let value):
            return Outcome(value: value, role: .joined)
        case .runOwn:
            return Outcome(value: try await operation(), role: .ownOperation)
        case .retry:
            return try await run(key, isolation: isolation, isShareable: isShareable, operation: operation)
        case .lead:
            let value: Value
            do {
                value = try await operation()
            } catch {
                let waiters = finish(key)
                for waiter in waiters {
                    if error is CancellationError { waiter.resume(returning: .retry) } else { waiter.resume(throwing: error) }
                }
                throw error
            }
            let share = isShareable(value)
            for waiter in finish(key) { waiter.resume(returning: share ? .shared(value) : .runOwn) }
            return Outcome(value: value, role: .leader)
        }
    }

    /// Removes the flight for `key` and returns its waiters.
    private func finish(_ key: Key) -> [CheckedContinuation<Wake, any Error>] {
        flights.withLock { $0.removeValue(forKey: key)?.waiters ?? [] }
    }
}
