import Foundation
import Glibc
import MediaTestSupport
import Testing

/// Hardening items 1, 2 and 4 against the built binary: bodies nobody reads are refused from the head, a body
/// trickled below the minimum rate ends in `408`, and one address cannot take every connection.
@Suite(.enabled(if: NginxOrigin.isAvailable, "nginx is installed by scripts/test"), .serialized)
struct ClientBoundsTests {
    static let horse = "/catalog/horse-d29d871c.jpg"

    /// Sends `head` only (the announced body never follows) and reads the answer.
    static func headOnly(_ port: Int, _ head: String) throws -> (HTTPResponse, closed: Bool) {
        let fd = try RawHTTP.connect(port: port, timeoutSeconds: 5)
        defer { close(fd) }
        try RawHTTP.write(fd, Array(head.utf8))
        let response = try RawHTTP.readResponse(fd, isHead: head.hasPrefix("HEAD "))
        var byte: UInt8 = 0
        return (response, recv(fd, &byte, 1, 0) <= 0)
    }

    @Test func bodiesNobodyReadsAreRefusedFromTheHead() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        try world.start()
        let host = "Host: 127.0.0.1:\(world.port)\r\n"
        let cases: [(head: String, status: Int, code: String, detail: String)] = [
            ("GET \(Self.horse) HTTP/1.1\r\n\(host)Content-Length: 8388608\r\n\r\n", 400, "body-not-allowed",
             "a GET request carries no body"),
            ("HEAD \(Self.horse) HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n", 400, "body-not-allowed",
             "a HEAD request carries no body"),
            ("POST /nowhere/x HTTP/1.1\r\n\(host)Content-Length: 8388608\r\n\r\n", 404, "no-route", "no route is mounted at /nowhere/x"),
            ("PUT \(Self.horse) HTTP/1.1\r\n\(host)Content-Length: 8388608\r\nExpect: 100-continue\r\n\r\n", 405,
             "method-not-allowed", "route catalog answers GET and HEAD only"),
        ]
        for item in cases {
            let (response, closed) = try Self.headOnly(world.port, item.head)
            #expect(response.status == item.status, "\(item.head)")
            // HEAD answers carry no body: the code is checked on the GET twin below.
            if !item.head.hasPrefix("HEAD") {
                #expect(response.problemCode == item.code, "\(item.head)")
                #expect(response.problemDetail == item.detail, "\(item.head)")
            }
            #expect(response.header("Connection") == "close", "\(item.head)")
            #expect(closed, "\(item.head)")
        }
        let metrics = try world.admin("/_mediactl/metrics").text
        #expect(metrics.contains("\nmediactl_http_bodies_refused_total 4\n"))
        #expect(world.origin.accessLog.isEmpty)
    }

    /// One byte every 2 s used to hold a connection forever (the 10 s timer restarted with each read). Now the body
    /// must keep 1 KiB/s after 10 s of grace: the answer is `408` a little after 10 s.
    @Test func aBodyTrickledBelowTheMinimumRateIs408() throws {
        let world = try ServeEnvironment(policy: { base in
            """
            { "tiers": { "files": { "storage": "none", "contentTypes": ["*/*"] } },
              "routes": [ { "name": "files", "mount": "/files/", "origin": "\(base)/catalog/", "tier": "files", "methods": "all" } ] }
            """
        })
        defer { world.tearDown() }
        try world.start()
        let fd = try RawHTTP.connect(port: world.port, timeoutSeconds: 30)
        defer { close(fd) }
        let started = Date()
        try RawHTTP.write(fd, Array("POST /files/up HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n".utf8))
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        for _ in 0..<15 {
            if poll(&entry, 1, 2_000) > 0 { break }
            try? RawHTTP.write(fd, [0x61])
        }
        let response = try RawHTTP.readResponse(fd, isHead: false)
        let elapsed = Date().timeIntervalSince(started)
        #expect(response.status == 408)
        #expect(response.problemCode == "request-timeout")
        #expect(response.problemDetail == "request not received in time")
        #expect(elapsed >= 9.5 && elapsed < 16, "\(elapsed) s")
    }

    @Test func oneAddressCannotTakeEveryConnection() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        try world.start()
        var held: [Int32] = []
        defer { for fd in held { close(fd) } }
        let request = Array("GET /catalog/nothing-here HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        for _ in 0..<256 {
            let fd = try RawHTTP.connect(port: world.port, timeoutSeconds: 10)
            held.append(fd)
        }
        // Each held connection is admitted (it is answered); the 257th from the same address is refused at once.
        for fd in held.prefix(3) {
            try RawHTTP.write(fd, request)
            #expect(try RawHTTP.readResponse(fd, isHead: false).status != 503)
        }
        let over = try RawHTTP.send(port: world.port, raw: Array("GET \(Self.horse) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        #expect(over.status == 503)
        #expect(over.problemCode == "too-many-connections")
        #expect(over.problemDetail == "too many connections from one address")
        // Another address is served while the first holds its 256.
        let fd = try RawHTTP.connect(port: world.port, timeoutSeconds: 10, source: "127.0.0.2")
        defer { close(fd) }
        try RawHTTP.write(fd, Array("GET \(Self.horse) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        let other = try RawHTTP.readResponse(fd, isHead: false)
        #expect(other.status == 200)
        let metrics = try world.admin("/_mediactl/metrics").text
        #expect(metrics.contains("\nmediactl_http_connections_refused_per_address_total 1\n"))
    }

    @Test func aFrontAddressIsExempt() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        try world.start(extraArguments: ["--front", "127.0.0.1"])
        var held: [Int32] = []
        defer { for fd in held { close(fd) } }
        for _ in 0..<260 { held.append(try RawHTTP.connect(port: world.port, timeoutSeconds: 10)) }
        try RawHTTP.write(held[259], Array("GET \(Self.horse) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        #expect(try RawHTTP.readResponse(held[259], isHead: false).status == 200)
    }
}
