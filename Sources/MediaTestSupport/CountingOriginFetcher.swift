import HTTPCaching
import MediaCore
import MediaService
import Synchronization

/// A scripted ``OriginFetching`` for tests: answers by URL and `Authorization` value, counts
/// calls per URL, records every request, can delay answers, and enforces
/// ``OriginRequest/maxBodyBytes`` like a real transport.
///
/// Lookup order for a request: a script for its exact `Authorization` value, then (for a request
/// without one) ``AuthorizationMatch/none``, then ``AuthorizationMatch/any``; unscripted URLs
/// answer `404` with an empty body.
public final class CountingOriginFetcher: OriginFetching {
    /// Which requests a script answers.
    public enum AuthorizationMatch: Hashable, Sendable {
        /// Any request to the URL (the fallback).
        case any
        /// Requests without `Authorization`.
        case none
        /// Requests whose `Authorization` value is exactly this, e.g. `Bearer t1`.
        case value(String)
    }

    /// A scripted answer.
    public struct Reply: Sendable {
        public var result: Result<OriginResponse, OriginError>
        /// Time to wait before answering (cancellable). Default: zero.
        public var delay: Duration
        /// Interim responses reported before the answer (``OriginFetching/fetch(_:interim:)``). Default: none.
        public var interim: [OriginInterimResponse]

        /// A response, after `interim` responses.
        public init(status: HTTPStatus = 200, fields: HTTPFields = HTTPFields(), body: [UInt8] = [], delay: Duration = .zero,
                    interim: [OriginInterimResponse] = []) {
            result = .success(OriginResponse(status: status, fields: fields, body: body))
            self.delay = delay
            self.interim = interim
        }

        /// A failure.
        public init(error: OriginError, delay: Duration = .zero) {
            result = .failure(error)
            self.delay = delay
            interim = []
        }
    }

    struct State {
        var scripts: [String: [AuthorizationMatch: Reply]] = [:]
        var counts: [String: Int] = [:]
        var requests: [OriginRequest] = []
    }

    private let state = Mutex(State())

    public init() {}

    /// Scripts `reply` for `url` and the requests `authorization` matches (replacing any earlier one).
    public func setReply(_ reply: Reply, for url: String, authorization: AuthorizationMatch = .any) {
        state.withLock { $0.scripts[url, default: [:]][authorization] = reply }
    }

    /// How many times `url` was fetched.
    public func callCount(for url: String) -> Int { state.withLock { $0.counts[url] ?? 0 } }

    /// How many fetches happened in total.
    public var totalCallCount: Int { state.withLock { $0.requests.count } }

    /// Every request received, in order.
    public var requests: [OriginRequest] { state.withLock { $0.requests } }

    /// Counts and answers `request` from the script.
    /// - Throws: the scripted ``OriginError``; ``OriginError/Code/tooLarge`` when the scripted
    ///   body exceeds ``OriginRequest/maxBodyBytes``; `CancellationError` during a delay.
    public func fetch(_ request: OriginRequest) async throws -> OriginResponse {
        try await fetch(request, interim: nil)
    }

    /// ``fetch(_:)``, reporting the reply's ``Reply/interim`` responses to `interim` first.
    public func fetch(_ request: OriginRequest, interim: OriginInterimResponse.Handler?) async throws -> OriginResponse {
        let authorization = request.fields[.authorization]
        let reply = state.withLock { state -> Reply? in
            state.counts[request.url, default: 0] += 1
            state.requests.append(request)
            guard let scripts = state.scripts[request.url] else { return nil }
            if let authorization, let exact = scripts[.value(authorization)] { return exact }
            if authorization == nil, let anonymous = scripts[.none] { return anonymous }
            return scripts[.any]
        }
        guard let reply else { return OriginResponse(status: 404) }
        if let interim { for response in reply.interim { interim(response) } }
        if reply.delay > .zero { try await Task.sleep(for: reply.delay) }
        var response = try reply.result.get()
        if request.method == .head { response.body = [] }
        if response.body.count > request.maxBodyBytes {
            throw OriginError(.tooLarge, "the body exceeds \(request.maxBodyBytes) bytes")
        }
        return response
    }
}
