import MediaTestSupport
import Foundation
import HTTPServer
import Testing

@testable import MediaServer

/// The access log as a handler around the public one: each answer's line carries the service's outcome from the
/// answer's annotation, the origin's status from the asynchronous path, and the answer's request id.
@Suite struct AccessLogHandlerTests {
    /// Every field of each line but `time`, `duration_us` and `origin_us` (clock readings), in order.
    static func lines(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return object.keys.sorted().filter { !["time", "duration_us", "origin_us"].contains($0) }
                .map { "\($0)=\(object[$0].map { "\($0)" } ?? "-")" }.joined(separator: " ")
        }
    }

    @Test func eachAnswerGetsTheLineOfItsOutcome() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let harness = try MediaHTTPHandlerTests.harness()
        defer { Task { await harness.close() } }
        let path = try directory.file("access.log")
        let log = try AccessLog(path: path, format: AccessLogFormat(clearPathTiers: ["public"]) { _ in "d" },
                                configuration: .init(startsWriter: false))
        let handler = AccessLogHandler(MediaHTTPHandler(service: harness.service, annotates: true), accessLog: log)
        let get = HTTPServerRequest(method: "GET", target: "/catalog/spinner.gif", headerFields: [("X-Request-Id", "r-1")])
        var handoff: (any AnyObject & Sendable)?
        #expect(handler.handleSync(get, handoff: &handoff) == nil)
        var handedOff = get
        handedOff.handoff = handoff
        let miss = await handler.handle(handedOff)
        #expect(miss.annotation is AnsweredOutcome)
        #expect(miss.bodyCount == 4438)  // spinner.gif
        let hit = try #require(handler.handleSync(HTTPServerRequest(
            method: "HEAD", target: "/catalog/spinner.gif", headerFields: [("X-Request-Id", "r-2")])))
        #expect(hit.status == 200)
        _ = try #require(handler.handleSync(HTTPServerRequest(
            method: "GET", target: "/_mediactl/health", headerFields: [("X-Request-Id", "r-3")])))
        handler.serverAnswered(status: 431, bodyBytes: 7)
        log.close()
        #expect(try Self.lines(path) == [
            "bytes=4438 cache=miss id=1 method=GET origin_status=200 path=/catalog/spinner.gif request_id=r-1 route=catalog status=200 tier=public",
            "bytes=0 cache=hit id=2 method=HEAD path=/catalog/spinner.gif request_id=r-2 route=catalog status=200 tier=public",
            "bytes=185 cache=refused id=3 method=GET path=/_mediactl/health request_id=r-3 route=<null> status=404 tier=<null>",
            "bytes=7 cache=refused id=4 method=<null> path=<null> route=<null> status=431 tier=<null>",
        ])
    }

    @Test func withoutAnnotatingTheHandlerAnswersCarryNoOutcome() async throws {
        let harness = try MediaHTTPHandlerTests.harness()
        defer { Task { await harness.close() } }
        let answer = await MediaHTTPHandler(service: harness.service).handle(
            HTTPServerRequest(method: "GET", target: "/catalog/spinner.gif"))
        #expect(answer.status == 200)
        #expect(answer.annotation == nil)
    }
}
