import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The demo's HTTP client: a `URLSession` like an app's, with every cache and cookie store off
/// (on Linux, Foundation's `URLCache` is not an HTTP cache), so every row is a real request.
final class DemoClient: Sendable {
    /// One answer.
    struct Answer: Sendable {
        var status: Int
        var cacheStatus: String?
        var bytes: Int
        var body: [UInt8]
    }

    /// Why a request failed, for the message `request N (PATH) failed: <reason>`.
    struct Failure: Error {
        var reason: String
    }

    private let session: URLSession

    init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.timeoutIntervalForRequest = 10
        session = URLSession(configuration: configuration)
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// `GET base + path`, with `Authorization: Bearer <token>` when `token` is given.
    func get(_ base: String, _ path: String, token: String?) async throws(Failure) -> Answer {
        guard let url = URL(string: base + path) else { throw Failure(reason: "bad URL \(base + path)") }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: 10)
        if let token { request.setValue("Bearer " + token, forHTTPHeaderField: "Authorization") }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw Failure(reason: error.localizedDescription)
        }
        guard let http = response as? HTTPURLResponse else { throw Failure(reason: "not an HTTP response") }
        return Answer(
            status: http.statusCode, cacheStatus: http.value(forHTTPHeaderField: "Cache-Status"), bytes: data.count,
            body: [UInt8](data))
    }
}
