import HTTPCaching
import MediaCore
@testable import MediaCurl
@testable import MediaService
import Synchronization
import Testing

/// The libcurl transport and interim (1xx) responses (RFC 9110 §15.2): reported in order, with their own
/// fields, never mixed into the final response; and transfer codings other than `chunked` (RFC 9112 §6.1,
/// §6.3 rule 4): the body is read until the connection closes and passed as received.
@Suite(.timeLimit(.minutes(1))) struct CurlInterimTests {
    final class Recorder: Sendable {
        let received = Mutex<[OriginInterimResponse]>([])
        var handler: OriginInterimResponse.Handler { { [self] response in received.withLock { $0.append(response) } } }
        var all: [OriginInterimResponse] { received.withLock { $0 } }
    }

    static func fieldLines(_ fields: HTTPFields) -> [String] { fields.map { "\($0.name): \($0.value)" } }

    @Test func interimResponsesAreReportedInOrderWithTheirOwnFieldsOnly() async throws {
        let origin = try KeepAliveOrigin { _, connection in
            _ = connection.write("HTTP/1.1 103 Early Hints\r\nLink: </styles.css>; rel=preload; as=style\r\nx-my-header: test\r\n"
                + "Connection: x-hop\r\nx-hop: 1\r\nKeep-Alive: timeout=5\r\n\r\n"
                + "HTTP/1.1 102 Processing\r\n\r\n"
                + "HTTP/1.1 200 OK\r\nCache-Control: max-age=60\r\nContent-Length: 5\r\n\r\nfinal")
            return true
        }
        defer { origin.stop() }
        let fetcher = try CurlOriginFetcher()
        let recorder = Recorder()
        let response = try await fetcher.fetch(OriginRequest(url: origin.baseURL + "/hinted"), interim: recorder.handler)
        #expect(recorder.all.map(\.status) == [103, 102])
        #expect(Self.fieldLines(recorder.all[0].fields) == ["Link: </styles.css>; rel=preload; as=style", "x-my-header: test"])
        #expect(recorder.all[1].fields.isEmpty)
        #expect(response.status == 200)
        #expect(response.body == Array("final".utf8))
        #expect(Self.fieldLines(response.fields) == ["Cache-Control: max-age=60"])

        // Without a handler, the same final response.
        let plain = try await fetcher.fetch(OriginRequest(url: origin.baseURL + "/hinted"))
        #expect(plain == response)
        #expect(origin.requests.count == 2)
    }

    @Test func aTransferCodingOtherThanChunkedIsReadUntilCloseAndPassedAsReceived() async throws {
        let origin = try KeepAliveOrigin { request, connection in
            switch request.target {
            case "/foo":
                _ = connection.write("HTTP/1.1 200 OK\r\nCache-Control: max-age=60\r\nTransfer-Encoding: foo\r\n\r\nbytes-as-sent")
            case "/gzip":   // says gzip, is not: nothing decodes it
                _ = connection.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\nnot-gzip")
            case "/length": // Transfer-Encoding overrides Content-Length (RFC 9112 §6.3 rule 3)
                _ = connection.write("HTTP/1.1 200 OK\r\nContent-Length: 4\r\nTransfer-Encoding: foo\r\n\r\nlonger-than-4")
            default:        // "/foo-chunked": chunked framing removed, the foo coding left as is
                _ = connection.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: foo, chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
                return true
            }
            return false
        }
        defer { origin.stop() }
        let fetcher = try CurlOriginFetcher()
        let expected = ["/foo": "bytes-as-sent", "/gzip": "not-gzip", "/length": "longer-than-4", "/foo-chunked": "hello"]
        for (target, body) in expected.sorted(by: { $0.key < $1.key }) {
            let response = try await fetcher.fetch(OriginRequest(url: origin.baseURL + target, allowsRetry: false))
            #expect(response.status == 200, "\(target)")
            #expect(String(decoding: response.body, as: UTF8.self) == body, "\(target)")
            #expect(response.fields["Transfer-Encoding"] == nil, "\(target)")
        }
        let foo = try await fetcher.fetch(OriginRequest(url: origin.baseURL + "/foo"))
        #expect(Self.fieldLines(foo.fields) == ["Cache-Control: max-age=60"])
    }

    /// A 100 Continue the origin sends unasked is reported like any interim response (the service decides what to forward).
    @Test func anUnaskedContinueIsReportedAndItsFieldsStayOutOfTheFinalResponse() async throws {
        let origin = try KeepAliveOrigin { _, connection in
            _ = connection.write("HTTP/1.1 100 Continue\r\nX-Interim: yes\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok")
            return true
        }
        defer { origin.stop() }
        let recorder = Recorder()
        let response = try await CurlOriginFetcher().fetch(
            OriginRequest(method: "POST", url: origin.baseURL + "/up", body: Array("data".utf8), allowsRetry: false),
            interim: recorder.handler)
        #expect(recorder.all == [OriginInterimResponse(status: 100, fields: HTTPFields([("X-Interim", "yes")]))])
        #expect(response.status == 201)
        #expect(response.fields["X-Interim"] == nil)
        #expect(response.body == Array("ok".utf8))
    }
}
