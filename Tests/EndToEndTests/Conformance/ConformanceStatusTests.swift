import Foundation
import Testing

/// Origin statuses in conformance mode against the built binary (RFC 9111 §3, §4.2.2, §4.2.4, §5.2.2.3;
/// RFC 9110 §15): a final 5xx or unregistered status reaches the client as sent, is stored only with
/// explicit freshness, and is never reused stale.
@Suite(.serialized)
struct ConformanceStatusTests {
    static let errorStatuses = [500, 501, 502, 503, 504, 599]

    /// The origin's own status, fields and body reach the client; without freshness nothing is stored.
    @Test(arguments: errorStatuses)
    func anErrorStatusPassesThroughUnstored(status: Int) throws {
        let world = try ConformanceWorld { _, index, connection in
            connection.respond(status, reason: "Origin Says", [("X-Origin", "yes"), ("Content-Type", "text/plain")],
                               text: "status-\(status)-\(index)")
        }
        defer { world.tearDown() }
        let first = try world.get("/e")
        #expect(first.status == status)
        #expect(first.header("X-Origin") == "yes")
        #expect(first.header("Content-Type") == "text/plain")
        #expect(first.text == "status-\(status)-0")
        #expect(first.problemCode == nil)
        let second = try world.get("/e")
        #expect(second.status == status)
        #expect(second.text == "status-\(status)-1")
        #expect(world.origin.requests.count == 2)
    }

    /// With explicit freshness a 5xx or unregistered status is stored and reused while fresh.
    @Test(arguments: errorStatuses + [299, 499])
    func aFreshErrorWithExplicitFreshnessIsReused(status: Int) throws {
        let world = try ConformanceWorld { _, index, connection in
            connection.respond(status, [("Cache-Control", "max-age=3600")], text: "body-\(index)")
        }
        defer { world.tearDown() }
        #expect(try world.get("/fresh").text == "body-0")
        let hit = try world.get("/fresh")
        #expect(hit.status == status)
        #expect(hit.text == "body-0")
        #expect(hit.cacheStatus.hit)
        #expect(world.origin.requests.count == 1)
    }

    /// `public` alone, or heuristic freshness (`Last-Modified`), does not make a 5xx or an unregistered status
    /// storable; the same fields on a heuristically cacheable 404 do.
    @Test func publicOrHeuristicAloneDoNotStoreAnError() throws {
        let world = try ConformanceWorld { request, index, connection in
            let status = Int(request.target.dropFirst().prefix(3)) ?? 200
            connection.respond(status, [("Cache-Control", "public"), ("Last-Modified", "Mon, 01 Jan 2024 00:00:00 GMT")],
                               text: "\(request.target)-\(index)")
        }
        defer { world.tearDown() }
        for target in ["/500", "/599", "/404"] {
            _ = try world.get(target)
            _ = try world.get(target)
        }
        #expect(world.originTargets == ["/500", "/500", "/599", "/599", "/404"])
        let audit = try MediactlProcess.run(["audit", "--json", "--state-dir", world.serve.stateDirectory.path,
                                             "--policies", world.serve.policiesDirectory.path])
        #expect(audit.stdout.contains("error-without-explicit-freshness"))
    }

    /// §5.2.2.3: `no-store, must-understand` is honoured for an unrecognised status (not stored) and
    /// overridden for an understood one (stored).
    @Test func mustUnderstandStoresOnlyUnderstoodStatuses() throws {
        let world = try ConformanceWorld { request, index, connection in
            let status = request.target == "/599" ? 599 : 200
            connection.respond(status, [("Cache-Control", "max-age=3600, no-store, must-understand")], text: "b\(index)")
        }
        defer { world.tearDown() }
        for target in ["/599", "/599", "/200", "/200"] { _ = try world.get(target) }
        #expect(world.originTargets == ["/599", "/599", "/200"])
    }

    /// §4.2.4: a stale stored 5xx is never reused without validation, not even where `max-stale` or
    /// `stale-while-revalidate` would serve a stale 200.
    @Test func aStaleErrorIsNeverReused() throws {
        let world = try ConformanceWorld { request, index, connection in
            let status = request.target == "/stale500" ? 500 : 200
            connection.respond(status, [("Cache-Control", "max-age=60, stale-while-revalidate=86400"), ("Age", "120")],
                               text: "\(status)-\(index)")
        }
        defer { world.tearDown() }
        #expect(try world.get("/stale200").text == "200-0")
        let stale200 = try world.get("/stale200", [("Cache-Control", "max-stale=3600")])
        #expect(stale200.text == "200-0")
        #expect(stale200.cacheStatus.hit)
        #expect(try world.get("/stale500").text == "500-1")
        let again = try world.get("/stale500", [("Cache-Control", "max-stale=3600")])
        #expect(again.status == 500)
        #expect(again.text == "500-2")
        #expect(world.originTargets == ["/stale200", "/stale500", "/stale500"])
    }
}

extension ConformanceStatusTests {
    /// RFC 5861 §4: with `stale-if-error`, a 503 or a connection the origin closes without an answer is met
    /// with the stored response (`Cache-Status` `fwd=stale; detail=stale-if-error`), and the 503 is not stored.
    @Test func staleIfErrorCoversA503AndAClosedConnection() throws {
        let world = try ConformanceWorld { _, index, connection in
            switch index {
            case 0: connection.respond(200, [("Cache-Control", "max-age=1, stale-if-error=86400"), ("Age", "5")], text: "good")
            case 1: connection.respond(503, [("Cache-Control", "max-age=3600")], text: "unavailable")
            default: return   // closed without a byte
            }
        }
        defer { world.tearDown() }
        #expect(try world.get("/sie").text == "good")
        for _ in 0..<2 {
            let stale = try world.get("/sie")
            #expect(stale.status == 200)
            #expect(stale.text == "good")
            #expect(stale.cacheStatus.parameters["detail"] == "stale-if-error")
        }
        #expect(world.origin.requests.count == 3)
    }
}
