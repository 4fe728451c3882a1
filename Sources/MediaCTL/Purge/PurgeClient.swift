import Foundation
import MediaCore
import MediaCurl
import MediaOrigin
import MediaServer

/// The HTTP side of `mediactl purge`: one `POST /_mediactl/purge` to the running service with libcurl (MediaCurl, as
/// `warm` and `demo` use it: no cache, no cookies, no retry).
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

    /// Why the service could not be reached: the transport's reason, e.g. `cannot connect (curl error 7)`.
    public struct Unreachable: LocalizedError, Sendable, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }
        public var errorDescription: String? { reason }
    }

    /// The client's tunables.
    public var configuration: Configuration
    private let fetcher: any OriginFetching

    /// - Parameter fetcher: the transport. Default: ``MediaCurl/DefaultOriginFetcher/make(note:)``.
    public init(configuration: Configuration = Configuration(), fetcher: (any OriginFetching)? = nil) {
        self.configuration = configuration
        self.fetcher = fetcher ?? DefaultOriginFetcher.make()
    }

    /// Where to connect for a service listening on `listen` (`host:port` as in serve.json): the
    /// wildcard and IPv6 loopback addresses are reached through `localhost` (libcurl tries `::1` and `127.0.0.1`),
    /// `0.0.0.0` through `127.0.0.1`; any other address as it is.
    static func reachableAddress(_ listen: String) -> String {
        for (prefix, replacement) in [("[::1]:", "localhost:"), ("[::]:", "localhost:"), ("0.0.0.0:", "127.0.0.1:")]
        where listen.hasPrefix(prefix) {
            return replacement + listen.dropFirst(prefix.count)
        }
        return listen
    }

    /// Sends `body` (JSON) to `http://<listen>/_mediactl/purge` with `Authorization: Bearer <adminToken>`.
    /// - Throws: ``Unreachable`` when the service cannot be reached.
    public func post(body: [UInt8], listen: String, adminToken: String) async throws(Unreachable) -> Answer {
        try await post(path: AdminEndpoint.purgePath, body: body, listen: listen, adminToken: adminToken)
    }

    /// Sends `body` (JSON) to `http://<listen><path>` (an admin endpoint) with `Authorization: Bearer <adminToken>`.
    /// - Throws: ``Unreachable`` when the service cannot be reached.
    public func post(path: String, body: [UInt8], listen: String, adminToken: String) async throws(Unreachable) -> Answer {
        let request = OriginRequest(
            method: "POST", url: "http://\(Self.reachableAddress(listen))\(path)",
            fields: HTTPFields([("Content-Type", "application/json"), ("Authorization", "Bearer " + adminToken)]),
            timeout: configuration.timeout, body: body, allowsRetry: false)
        do {
            let response = try await fetcher.fetch(request)
            return Answer(status: Int(response.status.code), body: response.body)
        } catch {
            throw Unreachable(reason: (error as? OriginError)?.context ?? "\(error)")
        }
    }
}
