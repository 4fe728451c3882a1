import Foundation
import MediaTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Malformed and slow clients against the real `mediactl serve` over raw sockets.
@Suite(.enabled(if: NginxOrigin.isAvailable, "nginx is installed by scripts/test"), .serialized)
struct ProtocolRobustnessTests {
    @Test func malformedRequestsGetExactProblems() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        try world.start()
        let host = "Host: 127.0.0.1\r\n"
        // The HTTPServer parser answers problem+json with an exact `detail` (it has no `code` member).
        let cases: [(name: String, raw: String, status: Int, detail: String)] = [
            ("bad request line", "NONSENSE\r\n\r\n", 400, "malformed request line"),
            ("double space", "GET  /catalog/horse-d29d871c.jpg HTTP/1.1\r\n\(host)\r\n", 400, "malformed request line"),
            ("long target", "GET /catalog/\(String(repeating: "a", count: 9_000)) HTTP/1.1\r\n\(host)\r\n", 414,
             "request line longer than 8192 bytes"),
            ("oversized header", "GET /catalog/x.jpg HTTP/1.1\r\n\(host)X-Big: \(String(repeating: "b", count: 70_000))\r\n\r\n",
             431, "header section longer than 65536 bytes"),
            ("no host", "GET /catalog/x.jpg HTTP/1.1\r\n\r\n", 400, "request without exactly one Host field"),
            ("obs-fold", "GET /catalog/x.jpg HTTP/1.1\r\n\(host)X-A: 1\r\n  folded\r\n\r\n", 400,
             "obsolete line folding in header section"),
        ]
        for item in cases {
            let response = try RawHTTP.send(port: world.port, raw: Array(item.raw.utf8))
            #expect(response.status == item.status, "\(item.name)")
            #expect(response.header("Content-Type") == "application/problem+json", "\(item.name)")
            #expect(response.problemDetail == item.detail, "\(item.name)")
            #expect(response.header("Connection") == "close", "\(item.name)")
        }
        // Traversal out of a mount is refused by the service, never fetched.
        let traversal = try RawHTTP.send(
            port: world.port, raw: Array("GET /catalog/../receipts/r-7731.png HTTP/1.1\r\n\(host)Connection: close\r\n\r\n".utf8))
        #expect(traversal.status == 400)
        #expect(traversal.problemCode == "dot-segment")
        #expect(traversal.problemDetail == "'..' segment at index 1")
        #expect(!world.origin.accessLog.contains { $0.contains("r-7731") })
        // The server still answers normally.
        #expect(try world.get("/catalog/horse-d29d871c.jpg").status == 200)
    }

    @Test func slowClientDoesNotBlockOthers() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        try world.start()
        // Half a request line, then silence.
        let slow = try RawHTTP.connect(port: world.port)
        defer { close(slow) }
        try RawHTTP.write(slow, Array("GET /catalog/horse-d2".utf8))
        let started = Date()
        for index in 0..<10 {
            let response = try world.get("/catalog/horse-d29d871c.jpg?n=\(index)")
            #expect(response.status == 200)
            #expect(response.body == Fixtures.bytes("catalog/horse-d29d871c.jpg"))
        }
        // Far below the server's 10 s header timeout: nobody waited for the slow client.
        #expect(Date().timeIntervalSince(started) < 5)
        // The slow connection is still open (not yet timed out) and can finish its request.
        try RawHTTP.write(slow, Array("9d871c.jpg HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
        let late = try RawHTTP.readResponse(slow, isHead: false)
        #expect(late.status == 200)
        #expect(late.body == Fixtures.bytes("catalog/horse-d29d871c.jpg"))
    }
}
