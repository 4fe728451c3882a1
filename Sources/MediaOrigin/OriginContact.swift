import MediaCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// What one client request's own origin exchanges were, for the access log (`origin_status`, `origin_us`).
///
/// A caller that wants to know binds a recorder to ``current`` around ``MediaService/handle(_:)``; every
/// origin exchange the request makes in its task (a miss, a validation, a pass-through, a variant's source
/// fetch) records its final status and duration there. A coalesced waiter records nothing (it did not
/// contact the origin); a background refresh (`stale-while-revalidate`) records into the recorder of the
/// request that started it after that request was answered, which the reader has no use for any more.
/// With no recorder bound (the default), recording is one task-local read.
public final class OriginContact: Sendable {
    /// The recorder of the running task, or `nil`.
    @TaskLocal public static var current: OriginContact?

    private let state = Mutex<(status: HTTPStatus?, microseconds: Int64?)>((nil, nil))

    public init() {}

    /// The status of the last origin answer, or `nil` (no exchange, or none got an answer: connection failure,
    /// timeout).
    public var status: HTTPStatus? { state.withLock { $0.status } }
    /// Microseconds spent in origin exchanges, from sending the request to the whole answer (body
    /// included), summed over the request's exchanges; `nil` when there was none.
    public var microseconds: Int64? { state.withLock { $0.microseconds } }

    /// Records one exchange: `status` (`nil` when no answer came) and its duration in microseconds.
    public func record(status: HTTPStatus?, microseconds: Int64) {
        state.withLock { state in
            if let status { state.status = status }
            state.microseconds = (state.microseconds ?? 0) + microseconds
        }
    }

    /// Microseconds on the monotonic clock (`CLOCK_MONOTONIC`), for measuring an exchange.
    public static func monotonicMicroseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1_000
    }

    /// Runs `fetch`, recording its status and duration in ``current`` when one is bound.
    public static func measure<Response>(
        _ status: (Response) -> HTTPStatus, _ fetch: () async throws -> Response
    ) async throws -> Response {
        guard let recorder = current else { return try await fetch() }
        let started = monotonicMicroseconds()
        do {
            let response = try await fetch()
            recorder.record(status: status(response), microseconds: monotonicMicroseconds() - started)
            return response
        } catch {
            recorder.record(status: nil, microseconds: monotonicMicroseconds() - started)
            throw error
        }
    }
}
