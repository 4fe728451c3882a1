import Foundation
import MediaTestSupport
import Testing

/// Request ids and the service log (docs/operations.md, "Request ids", "Service log") through the built binary and
/// a real nginx origin: the front's well-formed `X-Request-Id` is kept, echoed and sent to the origin, a missing or
/// malformed one is replaced; `--log-format json --log-level debug` writes one JSON line per request with its id and
/// nothing private.
@Suite(.enabled(if: NginxOrigin.isAvailable)) struct RequestIDEndToEndTests {
    @Test func oneIdFollowsTheRequestToTheOriginAndIntoTheServiceLog() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        try world.start(extraArguments: ["--log-format", "json", "--log-level", "debug"])
        let given = try world.get("/catalog/horse-d29d871c.jpg", headers: [("X-Request-Id", "bff-0a1b2c")])
        #expect(given.status == 200)
        #expect(given.header("X-Request-Id") == "bff-0a1b2c")
        let made = try world.get("/catalog/coins-1fea11f1.jpg", headers: [("X-Request-Id", "no spaces allowed")])
        let madeID = try #require(made.header("X-Request-Id"))
        #expect(madeID.range(of: "^[0-9a-v]{5}-[0-9a-v]{9}$", options: .regularExpression) != nil, "\(madeID)")
        _ = try world.get("/receipts/r-1.png", token: "secret-token-77")
        _ = world.origin.accessLog(prefix: "/catalog/", count: 2)
        let origin = world.origin.rawAccessLog
        #expect(origin.contains { $0.hasPrefix("/catalog/horse-d29d871c.jpg ") && $0.hasSuffix(" rid=bff-0a1b2c") })
        #expect(origin.contains { $0.hasPrefix("/catalog/coins-1fea11f1.jpg ") && $0.hasSuffix(" rid=\(madeID)") })
        #expect(world.stop() == 0)
        let lines = try #require(world.serveStderr).split(separator: "\n").map(String.init)
        let requests = lines.filter { $0.contains(#""request_id":"#) }
        #expect(requests.count == 3, "\(lines)")
        for line in requests {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(Set(object.keys) == ["time", "level", "message", "request_id"])
            #expect(object["level"] as? String == "debug")
            for secret in ["secret-token-77", "Bearer", "/receipts/", "r-1.png", "horse-d29d871c"] {
                #expect(!line.contains(secret), "\(secret) in \(line)")
            }
        }
        #expect(requests.first?.contains(#""request_id":"bff-0a1b2c""#) == true)
        #expect(requests.first?.contains(#"answered 200 (miss) on route catalog (tier public) in "#) == true)
        // The stop line is info, and JSON too.
        #expect(lines.last?.contains(#""level":"info","message":"SIGTERM: stopped after draining in-flight requests"}"#) == true)
    }
}
