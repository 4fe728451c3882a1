import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPCaching
import Synchronization

/// The session delegate of ``URLSessionOriginFetcher``: collects each task's body under its
/// limit, refuses redirects, and resumes the waiting fetch exactly once.
final class OriginSessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    struct TaskState {
        let continuation: CheckedContinuation<OriginResponse, any Error>
        let maxBodyBytes: Int
        var response: HTTPURLResponse?
        var body: [UInt8] = []
        var timer: Task<Void, any Error>?
    }

    private let tasks = Mutex<[Int: TaskState]>([:])

    func register(_ id: Int, maxBodyBytes: Int, continuation: CheckedContinuation<OriginResponse, any Error>) {
        tasks.withLock { $0[id] = TaskState(continuation: continuation, maxBodyBytes: maxBodyBytes) }
    }

    /// Attaches the deadline timer of a registered task (cancelled when the task ends; at once
    /// when it already ended).
    func attach(_ timer: Task<Void, any Error>, to id: Int) {
        let attached = tasks.withLock { tasks -> Bool in
            guard tasks[id] != nil else { return false }
            tasks[id]!.timer = timer
            return true
        }
        if !attached { timer.cancel() }
    }

    /// Fails a task now: its fetch resumes at once with `error`, and later callbacks for it
    /// (data still arriving while libcurl winds the transfer down) are dropped.
    /// - Returns: whether the task was still pending.
    @discardableResult
    func fail(_ id: Int, _ error: any Error) -> Bool {
        guard let state = tasks.withLock({ $0.removeValue(forKey: id) }) else { return false }
        state.timer?.cancel()
        state.continuation.resume(throwing: error)
        return true
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        let id = dataTask.taskIdentifier
        guard let http = response as? HTTPURLResponse else {
            fail(id, OriginError(.invalidResponse, "not an HTTP response"))
            completionHandler(.cancel)
            return
        }
        let expected = http.expectedContentLength
        let limit = tasks.withLock { tasks -> Int? in
            guard tasks[id] != nil else { return nil }
            tasks[id]!.response = http
            // One allocation for a body of announced length (not past the limit): no regrowth copies.
            if expected > 0, expected <= Int64(tasks[id]!.maxBodyBytes) { tasks[id]!.body.reserveCapacity(Int(expected)) }
            return tasks[id]!.maxBodyBytes
        }
        if let limit, dataTask.originalRequest?.httpMethod != "HEAD", http.expectedContentLength > Int64(limit) {
            fail(id, OriginError(.tooLarge, "Content-Length \(http.expectedContentLength) exceeds \(limit) bytes"))
            // `.cancel` leaves libcurl's connection open on Linux; cancelling the task closes it.
            completionHandler(.allow)
            dataTask.cancel()
            return
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let id = dataTask.taskIdentifier
        let over = tasks.withLock { tasks -> Int? in
            guard tasks[id] != nil else { return nil }
            if tasks[id]!.body.count + data.count > tasks[id]!.maxBodyBytes { return tasks[id]!.maxBodyBytes }
            tasks[id]!.body.append(contentsOf: data)
            return nil
        }
        if let over {
            fail(id, OriginError(.tooLarge, "the body exceeds \(over) bytes"))
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let state = tasks.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        state.timer?.cancel()
        if let error {
            state.continuation.resume(throwing: Self.map(error, responded: state.response != nil))
            return
        }
        guard let response = state.response ?? task.response as? HTTPURLResponse else {
            state.continuation.resume(throwing: OriginError(.invalidResponse, "no HTTP response"))
            return
        }
        state.continuation.resume(returning: OriginResponse(
            status: response.statusCode, fields: Self.fields(of: response, method: task.originalRequest?.httpMethod),
            body: state.body))
    }

    /// Maps a URLSession error. Retryable: refused or unreachable hosts, and connections that
    /// closed before any response byte (libcurl's "empty reply", a stale keep-alive connection).
    static func map(_ error: any Error, responded: Bool) -> any Error {
        guard let urlError = error as? URLError else {
            return OriginAttemptFailure(error: OriginError(.connectionFailed, "transport error"), retryable: false)
        }
        let code = urlError.code.rawValue
        switch urlError.code {
        case .cancelled:
            return CancellationError()
        case .timedOut:
            return OriginError(.timeout, "the connection was idle too long")
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet:
            return OriginAttemptFailure(error: OriginError(.connectionFailed, "cannot connect (URLError \(code))"), retryable: true)
        case .networkConnectionLost where !responded, .badServerResponse where !responded:
            return OriginAttemptFailure(error: OriginError(.connectionFailed, "the connection closed before a response (URLError \(code))"),
                                    retryable: true)
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid, .clientCertificateRejected,
             .clientCertificateRequired:
            return OriginAttemptFailure(error: OriginError(.connectionFailed, "TLS failure (URLError \(code))"), retryable: false)
        default:
            return OriginAttemptFailure(error: OriginError(.invalidResponse, "unusable response (URLError \(code))"), retryable: false)
        }
    }
}
