import MediaService
import Synchronization

/// A scripted origin for tests, in-process: an ``OriginFetching`` that answers through a closure of
/// (request, 1-based call number), or from a table of URLs. It counts and records every request and can
/// delay every answer. For an origin on a real socket, with answers scripted byte for byte, see
/// ``ScriptedOrigin/Socket``.
public final class ScriptedOrigin: OriginFetching {
    /// Answers a request, given its 1-based call number (in arrival order); a thrown ``OriginError`` is the
    /// fetch's failure.
    public typealias Handler = @Sendable (OriginRequest, Int) throws -> OriginResponse

    private let handler: Handler
    private let delay: Duration
    private let state = Mutex<[OriginRequest]>([])

    /// Answers through `handler`, after `delay` (cancellable; default: none).
    public init(delay: Duration = .zero, _ handler: @escaping Handler) {
        self.handler = handler
        self.delay = delay
    }

    /// Answers each request from `table`, by its exact URL; a URL not in the table fails with
    /// ``OriginError/Code/connectionFailed`` ("no answer scripted").
    public convenience init(delay: Duration = .zero, table: [String: Result<OriginResponse, OriginError>]) {
        self.init(delay: delay) { request, _ in
            guard let answer = table[request.url] else { throw OriginError(.connectionFailed, "no answer scripted") }
            return try answer.get()
        }
    }

    /// Every request received, in order.
    public var requests: [OriginRequest] { state.withLock { $0 } }

    /// How many fetches happened.
    public var callCount: Int { state.withLock { $0.count } }

    /// Records `request`, waits the delay, then answers through the handler.
    /// - Throws: what the handler throws; `CancellationError` during the delay.
    public func fetch(_ request: OriginRequest) async throws -> OriginResponse {
        let number = state.withLock { requests -> Int in
            requests.append(request)
            return requests.count
        }
        if delay > .zero { try await Task.sleep(for: delay) }
        return try handler(request, number)
    }
}
