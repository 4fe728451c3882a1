import Foundation
import MediaServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The HTTP side of `mediactl purge`: one `POST /_mediactl/purge` to the running service with
/// URLSession (no URLCache, no cookies).
public struct PurgeClient: Sendable {
    /// Client tunables.
    public struct Configuration: Sendable, Hashable {
        /// Seconds to wait for the service's answer. Default: 30.
        public var timeout: Double

        public init(timeout: Double = 30) {
            self.timeout = timeout
        }
    }

    /// What the service answered.
    public struct Answer: Sendable, Hashable {
        /// The HTTP status.
        public var status: Int
        /// The response body.
        public var body: [UInt8]
    }

    /// The client's tunables.
    public var configuration: Configuration

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Where to connect for a service listening on `listen` (`host:port` as in serve.json): the
    /// wildcard and IPv6 loopback addresses are reached through `localhost` (Linux URLSession refuses
    /// IPv6-literal URLs with `NSURLErrorDomain -1000`; libcurl tries `::1` and `127.0.0.1`), `0.0.0.0`
    /// through `127.0.0.1`; any other address as it is.
    static func reachableAddress(_ listen: String) -> String {
        for (prefix, replacement) in [("[::1]:", "localhost:"), ("[::]:", "localhost:"), ("0.0.0.0:", "127.0.0.1:")]
        where listen.hasPrefix(prefix) {
            return replacement + listen.dropFirst(prefix.count)
        }
        return listen
    }

    /// Sends `body` (JSON) to `http://<listen>/_mediactl/purge` with `Authorization: Bearer <adminToken>`.
    /// - Throws: the transport error (`URLError`) when the service cannot be reached.
    public func post(body: [UInt8], listen: String, adminToken: String) async throws -> Answer {
        try await post(path: AdminEndpoint.purgePath, body: body, listen: listen, adminToken: adminToken)
    }

    /// Sends `body` (JSON) to `http://<listen><path>` (an admin endpoint) with `Authorization: Bearer <adminToken>`.
    /// - Throws: the transport error (`URLError`) when the service cannot be reached.
    public func post(path: String, body: [UInt8], listen: String, adminToken: String) async throws -> Answer {
        guard let url = URL(string: "http://\(Self.reachableAddress(listen))\(path)") else {
            throw URLError(.badURL)
        }
        var request = URLRequest(
            url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: configuration.timeout)
        request.httpMethod = "POST"
        request.httpBody = Data(body)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("Bearer " + adminToken, forHTTPHeaderField: "Authorization")
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.urlCache = nil
        sessionConfiguration.httpCookieStorage = nil
        sessionConfiguration.httpShouldSetCookies = false
        sessionConfiguration.timeoutIntervalForRequest = configuration.timeout
        let session = URLSession(configuration: sessionConfiguration)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(for: request)
        return Answer(status: (response as? HTTPURLResponse)?.statusCode ?? 0, body: [UInt8](data))
    }
}
