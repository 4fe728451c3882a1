import Foundation
import Glibc
import HTTPCaching
@testable import MediaService
import Testing

/// Defects found in the review of the libcurl transport, one test each.
@Suite(.timeLimit(.minutes(1))) struct CurlReviewTests {
    /// libcurl's low-speed check (`CURLOPT_LOW_SPEED_*`) runs from the moment the request is sent:
    /// it must not fail an origin that thinks for longer than the idle timeout's whole seconds
    /// before its status line (only the request's timeout bounds that wait).
    @Test func thinkingForSecondsBeforeTheHeadIsNotAnIdleTimeout() async throws {
        let origin = try KeepAliveOrigin { _, connection in
            usleep(2_500_000)
            connection.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
            return false
        }
        defer { origin.stop() }
        let fetcher = try CurlOriginFetcher(configuration: .init(idleTimeout: 1))
        let response = try await fetcher.fetch(OriginRequest(url: origin.baseURL + "/thinking", timeout: 30))
        #expect(response.status == 200)
        #expect(response.body == Array("ok".utf8))
    }

    /// An interim `103 Early Hints` is not the response's status line: the origin is still working
    /// on its answer, so the idle timeout does not start with it.
    @Test func interimResponseDoesNotStartTheIdleTimeout() async throws {
        let origin = try KeepAliveOrigin { _, connection in
            connection.write("HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n")
            usleep(1_500_000)
            connection.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
            return false
        }
        defer { origin.stop() }
        let fetcher = try CurlOriginFetcher(configuration: .init(idleTimeout: 0.3))
        let response = try await fetcher.fetch(OriginRequest(url: origin.baseURL + "/hints", timeout: 30))
        #expect(response.status == 200)
        #expect(response.body == Array("ok".utf8))
    }
}
