import HTTPServer
import MediaService
import MediaTestSupport
import Testing

@testable import MediaServer
@testable import MediaService

/// A request is routed, admitted and keyed once, even when the event loop's synchronous path (`handleSync`) cannot
/// answer it and hands it to the asynchronous one (issue 23): each admission of a bearer request to a partitioned
/// tier computes its partition digest, so the digests per request are the admissions per request.
@Suite(.serialized) struct AdmissionOnceTests {
    @Test func aMissAndAHitOverARealSocketAreEachAdmittedOnce() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.close() } }
        let server = HTTPServer(configuration: .init(host: "127.0.0.1", port: 0),
                                handler: MediaHTTPHandler(service: harness.service))
        let port = try server.start()
        defer { server.stop() }
        let keyer = harness.service.keys.keyer
        let start = keyer.partitionsComputed
        let miss = try RawHTTP.get(port: port, "/receipts/r-7732.jpg", token: "tok-U1")
        #expect(miss.status == 200)
        #expect(miss.header("Cache-Status") == "mediactl; fwd=uri-miss; fwd-status=200; ttl=60; stored; detail=encrypted-disk")
        #expect(keyer.partitionsComputed - start == 1)
        let hit = try RawHTTP.get(port: port, "/receipts/r-7732.jpg", token: "tok-U1")
        #expect(hit.header("Cache-Status") == "mediactl; hit; ttl=60")
        #expect(keyer.partitionsComputed - start == 2)
        #expect(harness.origin.totalCallCount == 1)
    }

    @Test func theHandoffCarriesTheAdmissionAndAPlainRequestStillWorksWithoutIt() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.close() } }
        let handler = MediaHTTPHandler(service: harness.service)
        var request = HTTPServerRequest(method: "GET", target: "/receipts/r-7732.jpg",
                                        headerFields: [("Authorization", "Bearer tok-U1")])
        let keyer = harness.service.keys.keyer
        let start = keyer.partitionsComputed
        var handoff: (any AnyObject & Sendable)?
        #expect(handler.handleSync(request, handoff: &handoff) == nil)
        #expect(handoff is AdmittedRequest)
        request.handoff = handoff
        let miss = await handler.handle(request)
        #expect(miss.status == 200)
        #expect(keyer.partitionsComputed - start == 1)
        // Without a handoff (a server that calls handleSync(_:) only), handle admits it itself.
        request.handoff = nil
        let hit = await handler.handle(request)
        #expect(hit.field("Cache-Status") == "mediactl; hit; ttl=60")
        #expect(keyer.partitionsComputed - start == 2)
    }

    /// The pipeline harness with a private receipt of `Bearer tok-U1` at the origin.
    static func harness() throws -> PipelineHarness {
        let harness = try PipelineHarness()
        harness.origin.setReply(
            .init(status: 200, fields: ["Cache-Control": "private, max-age=60"],
                  body: try TestFixtures.bytes("receipts/r-7732.jpg")),
            for: "http://origin.test/receipts/r-7732.jpg", authorization: .value("Bearer tok-U1"))
        return harness
    }
}
