import Foundation
import MediaTestSupport
import Testing

/// RFC 9110 §15.2 interim responses and RFC 9112 §6 transfer codings against the built binary in
/// conformance mode, with a scripted origin (nginx sends neither a `103` of our choosing nor an unknown
/// transfer coding).
@Suite(.serialized)
struct ConformanceInterimTests {
    static let hints = [("Link", "</styles.css>; rel=preload; as=style"), ("x-my-header", "test")]

    /// The interim response the origin writes before its final one.
    static func interimHead(_ status: Int, _ reason: String, _ fields: [(String, String)]) -> String {
        "HTTP/1.1 \(status) \(reason)\r\n" + fields.map { "\($0.0): \($0.1)\r\n" }.joined() + "\r\n"
    }

    static func fieldPairs(_ response: HTTPResponse) -> [[String]] { response.fields.map { [$0.name, $0.value] } }

    /// Off by default (`forwardInterim`): behind a front that takes a `103` for the final answer (nginx before
    /// 1.29), forwarding it would lose the real response.
    @Test func withoutForwardInterimTheClientGetsTheFinalAnswerOnly() throws {
        let world = try ConformanceWorld(tier: ["forwardInterim": "false"]) { _, index, connection in
            connection.write(Self.interimHead(103, "Early Hints", Self.hints))
            connection.respond(200, [("Cache-Control", "max-age=100000"), ("Content-Type", "text/plain")], text: "final-\(index)")
        }
        defer { world.tearDown() }
        let answer = try RawHTTP.requestWithInterim(port: world.serve.port, "GET", "/hinted")
        #expect(answer.interim.isEmpty)
        #expect(answer.final.status == 200)
        #expect(answer.final.text == "final-0")
    }

    /// §15.2, RFC 8297: the `103` reaches the client with its status and fields, before the final `200`,
    /// which carries none of them; the stored response does not either, and a hit gets no interim response.
    @Test func earlyHintsReachTheClientAndAreNeverStored() throws {
        let world = try ConformanceWorld { _, index, connection in
            connection.write(Self.interimHead(103, "Early Hints", Self.hints))
            connection.respond(200, [("Cache-Control", "max-age=100000"), ("Content-Type", "text/plain")], text: "final-\(index)")
        }
        defer { world.tearDown() }
        let first = try RawHTTP.requestWithInterim(port: world.serve.port, "GET", "/hinted")
        #expect(first.interim.map(\.status) == [103])
        #expect(first.interim.map(Self.fieldPairs) == [[["Link", "</styles.css>; rel=preload; as=style"], ["x-my-header", "test"]]])
        #expect(first.final.status == 200)
        #expect(first.final.text == "final-0")
        // The binary reads a real clock: the ttl may be a second lower when a second boundary passes.
        #expect(["mediactl; fwd=uri-miss; fwd-status=200; ttl=100000; stored; detail=memory",
                 "mediactl; fwd=uri-miss; fwd-status=200; ttl=99999; stored; detail=memory"]
            .contains(first.final.header("Cache-Status") ?? ""))
        #expect(first.final.header("Link") == nil)
        #expect(first.final.header("x-my-header") == nil)

        let second = try RawHTTP.requestWithInterim(port: world.serve.port, "GET", "/hinted")
        #expect(second.interim.isEmpty)
        #expect(second.final.status == 200)
        #expect(second.final.text == "final-0")
        #expect(second.final.cacheStatus.hit)
        #expect(second.final.cacheStatus.raw.hasPrefix("mediactl; hit; ttl="))
        #expect(second.final.header("Link") == nil)
        #expect(second.final.header("x-my-header") == nil)
        #expect(world.origin.requests.count == 1)
    }

    /// A `102 Processing` passes through the same way, and the final response is stored.
    @Test func processingReachesTheClientAndTheFinalResponseIsStored() throws {
        let world = try ConformanceWorld { _, _, connection in
            connection.write(Self.interimHead(102, "Processing", []))
            connection.respond(200, [("Cache-Control", "max-age=100000")], text: "after-102")
        }
        defer { world.tearDown() }
        let first = try RawHTTP.requestWithInterim(port: world.serve.port, "GET", "/slow")
        #expect(first.interim.map(\.status) == [102])
        #expect(first.interim.map(Self.fieldPairs) == [[]])
        #expect(first.final.text == "after-102")
        let second = try RawHTTP.requestWithInterim(port: world.serve.port, "GET", "/slow")
        #expect(second.interim.isEmpty)
        #expect(second.final.cacheStatus.hit)
        #expect(world.origin.requests.count == 1)
    }

    /// §15.2: a server must not send a 1xx to an HTTP/1.0 client; it gets the final response only.
    @Test func anHTTP10ClientGetsTheFinalResponseOnly() throws {
        let world = try ConformanceWorld { _, _, connection in
            connection.write(Self.interimHead(103, "Early Hints", Self.hints))
            connection.respond(200, [("Cache-Control", "no-store")], text: "old-client")
        }
        defer { world.tearDown() }
        let answer = try RawHTTP.requestWithInterim(port: world.serve.port, "GET", "/old", version: "HTTP/1.0")
        #expect(answer.interim.isEmpty)
        #expect(answer.final.status == 200)
        #expect(answer.final.text == "old-client")
        #expect(answer.final.header("Link") == nil)
    }

    /// An unsafe method is passed through with its interim responses.
    @Test func aPassThroughMethodForwardsTheInterimResponse() throws {
        let world = try ConformanceWorld { _, _, connection in
            connection.write(Self.interimHead(103, "Early Hints", [("Link", "</next.js>; rel=preload; as=script")]))
            connection.respond(201, [("Content-Type", "text/plain")], text: "created")
        }
        defer { world.tearDown() }
        let answer = try RawHTTP.requestWithInterim(port: world.serve.port, "POST", "/things", headers: [("Content-Length", "0")])
        #expect(answer.interim.map(Self.fieldPairs) == [[["Link", "</next.js>; rel=preload; as=script"]]])
        #expect(answer.final.status == 201)
        #expect(answer.final.text == "created")
        #expect(answer.final.header("Cache-Status") == "mediactl; fwd=method; fwd-status=201; detail=invalidated")
    }

    /// RFC 9112 §6.1, §6.3 rule 4, RFC 9111 §3.1: a response whose final transfer coding is not `chunked`
    /// (one the cache does not know, or `gzip` it was never asked for) is delimited by the close, passed
    /// as read, stored, and `Transfer-Encoding` (hop-by-hop) is neither forwarded nor stored.
    @Test(arguments: ["foo", "gzip", "qmfbesvzkrjxhtw"])
    func anUnknownTransferCodingIsReadUntilCloseAndNotForwarded(coding: String) throws {
        let world = try ConformanceWorld { _, _, connection in
            connection.respond(200, [("Cache-Control", "max-age=3600"), ("Transfer-Encoding", coding)],
                               body: Array("bytes-as-read".utf8), contentLength: false)
        }
        defer { world.tearDown() }
        let first = try world.get("/coded")
        #expect(first.status == 200)
        #expect(first.text == "bytes-as-read")
        #expect(first.header("Transfer-Encoding") == nil)
        #expect(first.header("Content-Length") == "13")
        // The binary reads a real clock: the ttl may be a second lower when a second boundary passes.
        #expect(["mediactl; fwd=uri-miss; fwd-status=200; ttl=3600; stored; detail=memory",
                 "mediactl; fwd=uri-miss; fwd-status=200; ttl=3599; stored; detail=memory"]
            .contains(first.header("Cache-Status") ?? ""))
        let second = try world.get("/coded")
        #expect(second.status == 200)
        #expect(second.text == "bytes-as-read")
        #expect(second.header("Transfer-Encoding") == nil)
        #expect(second.cacheStatus.hit)
        #expect(world.origin.requests.count == 1)
    }
}
