import Foundation
import MediaTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The admin listener answers as docs/operations.md ("Admin endpoints") says, against the built binary: a known path
/// asked with another method is `405` with `Allow`, any other `/_mediactl/` path `404`; and every status line, an
/// origin's `451` included, carries its reason phrase.
@Suite(.enabled(if: NginxOrigin.isAvailable)) struct AdminListenerEndToEndTests {
    /// The status line of `method target` sent to `port` (with `Content-Length: 0`), and the answer.
    static func exchange(port: Int, _ method: String, _ target: String,
                         token: String? = nil) throws -> (statusLine: String, response: HTTPResponse) {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        if method == "POST" { head += "Content-Length: 0\r\n" }
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        head += "\r\n"
        let fd = try RawHTTP.connect(port: port)
        defer { close(fd) }
        try RawHTTP.write(fd, Array(head.utf8))
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            buffer.append(contentsOf: chunk[0..<count])
        }
        let line = String(decoding: buffer.prefix { $0 != 13 }, as: UTF8.self)
        var rest = buffer
        let response = try RawHTTP.readResponse(-1, isHead: method == "HEAD", buffer: &rest)
        return (line, response)
    }

    @Test func methodsAndPathsAnswerAsDocumented() throws {
        let world = try ServeEnvironment(originServerConfig: "location = /catalog/legal.jpg { return 451; }",
                                         policy: ServeEnvironment.repositoryDefaultPolicy(originBase:))
        defer { world.tearDown() }
        try world.start()
        let cases: [(method: String, target: String, line: String, allow: String?, code: String, detail: String)] = [
            ("GET", "/_mediactl/purge", "HTTP/1.1 405 Method Not Allowed", "POST", "method-not-allowed",
             "/_mediactl/purge answers POST only"),
            ("HEAD", "/_mediactl/purge", "HTTP/1.1 405 Method Not Allowed", "POST", "", ""),
            ("POST", "/_mediactl/purge/", "HTTP/1.1 404 Not Found", nil, "no-route", "no endpoint at /_mediactl/purge/"),
            ("POST", "/_mediactl/health", "HTTP/1.1 405 Method Not Allowed", "GET, HEAD", "method-not-allowed",
             "/_mediactl/health answers GET and HEAD only"),
            ("DELETE", "/_mediactl/metrics", "HTTP/1.1 405 Method Not Allowed", "GET, HEAD", "method-not-allowed",
             "/_mediactl/metrics answers GET and HEAD only"),
            ("GET", "/_mediactl/admin/reload", "HTTP/1.1 405 Method Not Allowed", "POST", "method-not-allowed",
             "/_mediactl/admin/reload answers POST only"),
            ("POST", "/_mediactl/other", "HTTP/1.1 404 Not Found", nil, "no-route", "no endpoint at /_mediactl/other"),
            ("GET", "/_mediactl/health/", "HTTP/1.1 404 Not Found", nil, "no-route", "no endpoint at /_mediactl/health/"),
        ]
        for (method, target, line, allow, code, detail) in cases {
            let (statusLine, response) = try Self.exchange(port: world.adminPort, method, target)
            #expect(statusLine == line, "\(method) \(target)")
            #expect(response.header("Allow") == allow, "\(method) \(target)")
            if method != "HEAD" {
                #expect(response.header("Content-Type") == "application/problem+json", "\(method) \(target)")
                #expect(response.problemCode == code, "\(method) \(target)")
                #expect(response.problemDetail == detail, "\(method) \(target)")
            }
        }
        let (legal, answer) = try Self.exchange(port: world.port, "GET", "/catalog/legal.jpg")
        #expect(legal == "HTTP/1.1 451 Unavailable For Legal Reasons")
        #expect(answer.status == 451, "\(answer.fields)")
    }
}
