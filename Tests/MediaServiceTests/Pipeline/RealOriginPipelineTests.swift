import Foundation
import HTTPCaching
import MediaCurl
import MediaService
import MediaTestSupport
import Testing

/// The pipeline over real sockets: ``CurlOriginFetcher`` against a loopback HTTP origin, so
/// header hygiene, conditionals and redirects are checked on what actually goes over the wire.
@Suite(.timeLimit(.minutes(1))) struct RealOriginPipelineTests {
    static func policy(_ base: String) -> String {
        PipelineHarness.defaultPolicy.replacingOccurrences(of: "http://origin.test", with: base)
    }

    static func response(_ status: String, _ fields: [(String, String)], body: [UInt8] = []) -> [UInt8] {
        var head = "HTTP/1.1 \(status)\r\nConnection: close\r\nContent-Length: \(body.count)\r\n"
        for (name, value) in fields { head += "\(name): \(value)\r\n" }
        return Array((head + "\r\n").utf8) + body
    }

    @Test func hygieneConditionalsAndSniffingOverTheWire() async throws {
        let jpeg = try Fixtures.bytes("catalog/horse-d29d871c.jpg")
        let server = try ScriptedOrigin.Socket { request, connection in
            if request.header("If-None-Match") == "\"h1\"" {
                connection.write(Self.response("304 Not Modified", [("ETag", "\"h1\""), ("Cache-Control", "max-age=60")]))
            } else {
                connection.write(Self.response("200 OK", [("ETag", "\"h1\""), ("Cache-Control", "max-age=1"),
                                                          ("Content-Type", "text/plain"), ("Set-Cookie", "sid=S1")], body: jpeg))
            }
        }
        defer { server.stop() }
        let harness = try PipelineHarness(policyJSON: Self.policy(server.baseURL), fetcher: try CurlOriginFetcher())
        defer { Task { await harness.close() } }
        let first = await harness.get("/catalog/h.jpg", [
            ("Cookie", "sid=client"), ("X-Forwarded-Host", "evil.example"), ("Authorization", "Bearer t1"), ("Accept", "image/*"),
        ])
        #expect(first.status == 200)
        #expect(first.body == jpeg)
        #expect(first.fields["Content-Type"] == "image/jpeg")
        #expect(first.fields["Set-Cookie"] == nil)
        #expect(first.fields["Cache-Status"] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=1; stored; detail=disk")
        harness.clock.advance(2)
        let validated = await harness.get("/catalog/h.jpg")
        #expect(validated.fields["Cache-Status"] == "mediactl; fwd=stale; fwd-status=304; ttl=60")
        #expect(validated.body == jpeg)
        let seen = server.requests
        #expect(seen.map(\.target) == ["/catalog/h.jpg", "/catalog/h.jpg"])
        #expect(seen.map { $0.header("If-None-Match") } == [nil, "\"h1\""])
        for request in seen {
            #expect(request.header("Cookie") == nil)
            #expect(request.header("X-Forwarded-Host") == nil)
            #expect(request.header("Authorization") == nil)
            #expect(request.header("User-Agent") == "mediactl/0.1.0")
            // The tier does not forward Accept (forwardRequestHeaders): the image tier's allow-list.
            #expect(request.header("Accept") == nil)
        }
    }

    @Test func redirectIsRefusedAndItsTargetNeverContacted() async throws {
        let server = try ScriptedOrigin.Socket { request, connection in
            connection.write(Self.response("302 Found", [("Location", "/catalog/elsewhere.jpg"), ("Cache-Control", "max-age=600")]))
        }
        defer { server.stop() }
        let harness = try PipelineHarness(policyJSON: Self.policy(server.baseURL), fetcher: try CurlOriginFetcher())
        defer { Task { await harness.close() } }
        let response = await harness.get("/catalog/moved.jpg")
        #expect(response.status == 502)
        #expect(PipelineSupport.problemCode(response) == "redirect-refused")
        #expect(server.requests.map(\.target) == ["/catalog/moved.jpg"])
    }

    @Test func bearerTierForwardsTheTokenAndSealsTheAnswer() async throws {
        let receipt = try Fixtures.bytes("receipts/r-7732.jpg")
        let server = try ScriptedOrigin.Socket { request, connection in
            if request.header("Authorization") == "Bearer t1" {
                connection.write(Self.response("200 OK", [("Cache-Control", "private, max-age=60")], body: receipt))
            } else {
                connection.write(Self.response("403 Forbidden", []))
            }
        }
        defer { server.stop() }
        let harness = try PipelineHarness(policyJSON: Self.policy(server.baseURL), fetcher: try CurlOriginFetcher())
        defer { Task { await harness.close() } }
        let u1 = await harness.get("/receipts/r.jpg?download=1", [("Authorization", "Bearer t1")])
        #expect(u1.status == 200)
        #expect(u1.body == receipt)
        #expect(u1.outcome.storage == .stored(.encryptedDisk))
        let u2 = await harness.get("/receipts/r.jpg?download=1", [("Authorization", "Bearer t2")])
        #expect(u2.status == 403)
        #expect(server.requests.map(\.target) == ["/receipts/r.jpg?download=1", "/receipts/r.jpg?download=1"])
        #expect(server.requests.map { $0.header("Authorization") } == ["Bearer t1", "Bearer t2"])
        let slice = Array(receipt[4000..<4064])
        for file in harness.filesUnderState() { #expect(!file.bytes.contains(slice), "plaintext in \(file.path)") }
    }
}
