import Foundation
import MediaTestSupport
import Testing

/// Leniencies RFC 9112 allows that would help a desync behind another front are refusals (docs/http-server.md,
/// "Strict where RFC 9112 allows leniency"), answered by the built binary with their exact code and detail.
@Suite(.enabled(if: NginxOrigin.isAvailable, "nginx is installed by scripts/test"), .serialized)
struct StrictFramingTests {
    @Test func bareLFChunkWhitespaceHostAndContentLengthListsAreRefused() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        try world.start()
        let horse = "/catalog/horse-d29d871c.jpg"
        let host = "Host: 127.0.0.1:\(world.port)\r\n"
        let cases: [(raw: String, code: String, detail: String, status: Int)] = [
            ("GET \(horse) HTTP/1.1\n\(host)\r\n", "bare-line-feed", "a line ended by LF without CR", 400),
            ("GET \(horse) HTTP/1.1\r\nHost: 127.0.0.1\n\r\n", "bare-line-feed", "a line ended by LF without CR", 400),
            ("POST \(horse) HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n5\nhello\r\n0\r\n\r\n",
             "bare-line-feed", "a line ended by LF without CR", 400),
            ("POST \(horse) HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n5 ;x\r\nhello\r\n0\r\n\r\n",
             "invalid-chunk", "whitespace after the chunk size", 400),
            ("GET \(horse) HTTP/1.1\r\nHost: evil.example/x\r\n\r\n", "invalid-host", "Host is not uri-host[:port]", 400),
            ("GET \(horse) HTTP/1.1\r\nHost: a b\r\n\r\n", "invalid-host", "Host is not uri-host[:port]", 400),
            ("POST \(horse) HTTP/1.1\r\n\(host)Content-Length: 5,5\r\n\r\nhello", "invalid-content-length", "a Content-Length list", 400),
            ("POST \(horse) HTTP/1.1\r\n\(host)Content-Length: 5\r\nContent-Length: 5\r\n\r\nhello",
             "invalid-content-length", "several Content-Length fields", 400),
            ("GET \(horse) HTTP/1.2\r\n\(host)\r\n", "unsupported-version", "HTTP version HTTP/1.2 is not supported", 505),
        ]
        for item in cases {
            let response = try RawHTTP.send(port: world.port, raw: Array(item.raw.utf8))
            #expect(response.status == item.status, "\(item.raw)")
            #expect(response.problemCode == item.code, "\(item.raw)")
            #expect(response.problemDetail == item.detail, "\(item.raw)")
            #expect(response.header("Connection") == "close", "\(item.raw)")
        }
        // The same requests written correctly are served.
        let good = try RawHTTP.send(port: world.port, raw: Array("GET \(horse) HTTP/1.1\r\n\(host)Connection: close\r\n\r\n".utf8))
        #expect(good.status == 200)
        #expect(world.origin.accessLog.count == 1)
    }
}
