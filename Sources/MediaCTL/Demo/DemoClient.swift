import MediaCore
import MediaCurl
import MediaOrigin

/// The demo's HTTP client: libcurl through MediaCurl, as `warm` uses it (no cache, no cookies, no retry), so every row
/// is one real request.
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

    private let fetcher: any OriginFetching

    init(fetcher: any OriginFetching = DefaultOriginFetcher.make()) {
        self.fetcher = fetcher
    }

    /// `GET base + path`, with `Authorization: Bearer <token>` when `token` is given.
    func get(_ base: String, _ path: String, token: String?) async throws(Failure) -> Answer {
        var fields = HTTPFields()
        if let token { fields.append(.authorization, "Bearer " + token) }
        let response: OriginResponse
        do {
            response = try await fetcher.fetch(OriginRequest(url: base + path, fields: fields, timeout: 10, allowsRetry: false))
        } catch {
            throw Failure(reason: (error as? OriginError)?.context ?? "\(error)")
        }
        return Answer(status: Int(response.status.code), cacheStatus: response.fields["Cache-Status"],
                      bytes: response.body.count, body: response.body)
    }
}
