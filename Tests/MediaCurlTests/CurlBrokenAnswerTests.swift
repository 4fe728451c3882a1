import HTTPCaching
@testable import MediaCurl
@testable import MediaService
import Testing

/// Origins that answer and then break: the error says what happened (not "unusable"), and a GET
/// is not retried once a response has started (the origin did answer).
@Suite(.timeLimit(.minutes(1))) struct CurlBrokenAnswerTests {
    @Test func aBodyCutShortByCloseIsAnInvalidResponseSayingSo() async throws {
        let origin = try KeepAliveOrigin { _, connection in
            connection.write("HTTP/1.1 200 OK\r\nContent-Type: image/jpeg\r\nContent-Length: 100\r\n\r\n0123456789")
            return false
        }
        defer { origin.stop() }
        let fetcher = try CurlOriginFetcher(configuration: .init(retryBaseDelay: 0.001))
        await #expect(throws: OriginError(.invalidResponse, "the connection closed before the whole body arrived (curl error 18)",
                                          attempts: 1)) {
            try await fetcher.fetch(OriginRequest(url: origin.baseURL + "/cut.jpg"))
        }
        #expect(origin.requests.count == 1)
    }

    @Test func aChunkedBodyCutShortByCloseIsAnInvalidResponse() async throws {
        let origin = try KeepAliveOrigin { _, connection in
            connection.write("HTTP/1.1 200 OK\r\nContent-Type: image/jpeg\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n0123456789")
            return false
        }
        defer { origin.stop() }
        let fetcher = try CurlOriginFetcher(configuration: .init(retryBaseDelay: 0.001))
        do {
            _ = try await fetcher.fetch(OriginRequest(url: origin.baseURL + "/cut.jpg"))
            Issue.record("a cut chunked body was accepted")
        } catch let error as OriginError {
            #expect(error.code == .invalidResponse)
            #expect(error.attempts == 1)
        }
        #expect(origin.requests.count == 1)
    }
}

extension CurlBrokenAnswerTests {
    /// 1 MB of head: over libcurl's limit in every version (100 KiB per line before 8.6, 300 KiB in all since).
    @Test func aHeadOverLibcurlsLimitIsAnInvalidResponseSayingSo() async throws {
        let code = try CurlLibrary.shared.get().versionNumber >= 0x080600 ? 100 : 27
        let origin = try KeepAliveOrigin { _, connection in
            _ = connection.write("HTTP/1.1 200 OK\r\nX-Big: " + String(repeating: "a", count: 1_000_000) + "\r\nContent-Length: 2\r\n\r\nok")
            return true
        }
        defer { origin.stop() }
        await #expect(throws: OriginError(.invalidResponse,
                                          "the response head is over libcurl's limit, or memory ran out (curl error \(code))", attempts: 1)) {
            try await CurlOriginFetcher().fetch(OriginRequest(url: origin.baseURL + "/big-head.jpg"))
        }
    }
}
