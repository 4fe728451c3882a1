import Foundation
import MediaTestSupport
import Testing

/// Client validators answered from the store (RFC 9110 §13.1.2, §8.8.3; RFC 9111 §4.3.2) against the built
/// binary in conformance mode: weak comparison for `If-None-Match`, `W/` tags, and entity tags whose opaque
/// part holds obs-text (bytes 0x80–0xFF, which are not UTF-8 here: the bytes must come back unchanged).
@Suite(.serialized)
struct ConformanceValidatorTests {
    /// `ETag: "abcdef<0xFC>"` as raw bytes (Latin-1 `ü`, what a Node origin sends).
    static let obsTextTag: [UInt8] = Array("\"abcdef".utf8) + [0xFC] + Array("\"".utf8)

    @Test func weakComparisonAnswers304() throws {
        let world = try ConformanceWorld { request, _, connection in
            let tag = request.target == "/weak" ? "W/\"abcdef\"" : "\"abcdef\""
            connection.respond(200, [("Cache-Control", "max-age=3600"), ("ETag", tag)], text: "x")
        }
        defer { world.tearDown() }
        for (path, inm) in [("/weak", "W/\"abcdef\""), ("/weak", "\"abcdef\""), ("/strong", "W/\"abcdef\""),
                            ("/strong", "\"1234\", \"abcdef\", \"5678\"")] {
            _ = try world.get(path)
            let conditional = try world.get(path, [("If-None-Match", inm)])
            #expect(conditional.status == 304, "\(path) \(inm)")
            #expect(conditional.cacheStatus.hit, "\(path) \(inm)")
        }
        #expect(try world.get("/strong", [("If-None-Match", "\"other\"")]).status == 200)
        #expect(world.originTargets == ["/weak", "/strong"])
    }

    @Test func obsTextInAnEntityTagIsComparedAndServedByteForByte() throws {
        let world = try ConformanceWorld { _, _, connection in
            connection.write(Array("HTTP/1.1 200 OK\r\nCache-Control: max-age=3600\r\nContent-Length: 1\r\nETag: ".utf8)
                             + Self.obsTextTag + Array("\r\n\r\nx".utf8))
        }
        defer { world.tearDown() }
        func send(_ extra: [UInt8]) throws -> [UInt8] {
            let fd = try RawHTTP.connect(port: world.serve.port)
            defer { close(fd) }
            try RawHTTP.write(fd, Array("GET /obs HTTP/1.1\r\nHost: x\r\nConnection: close\r\n".utf8) + extra + Array("\r\n".utf8))
            var all: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = recv(fd, &buffer, buffer.count, 0)
                if count <= 0 { break }
                all += buffer[0..<count]
            }
            return all
        }
        let first = try send([])
        #expect(RawHTTP.firstRange(of: Array("ETag: ".utf8) + Self.obsTextTag + [13, 10], in: first) != nil)
        let conditional = try send(Array("If-None-Match: ".utf8) + Self.obsTextTag + [13, 10])
        #expect(conditional.starts(with: Array("HTTP/1.1 304".utf8)))
        #expect(RawHTTP.firstRange(of: Array("ETag: ".utf8) + Self.obsTextTag + [13, 10], in: conditional) != nil)
        let other = try send(Array("If-None-Match: \"abcdef".utf8) + [0xFD] + Array("\"\r\n".utf8))
        #expect(other.starts(with: Array("HTTP/1.1 200".utf8)))
        #expect(world.origin.requests.count == 1)
    }
}
