import Foundation
import MediaTestSupport
import Testing

/// RFC 9213 targeted cache control in conformance mode against the built binary: `CDN-Cache-Control` (and a
/// tier's own list) replaces `Cache-Control` and `Expires` for storage and freshness, both ways.
@Suite(.serialized)
struct ConformanceTargetedTests {
    static let future = "Thu, 01 Jan 2099 00:00:00 GMT"

    /// The origin answers each path with that path's fields (and a body naming the request's index).
    static func world(tier: [String: String] = [:], _ table: [String: [(String, String)]]) throws -> ConformanceWorld {
        try ConformanceWorld(tier: tier) { request, index, connection in
            connection.respond(200, table[request.target] ?? [], text: "\(request.target)#\(index)")
        }
    }

    /// Requests each path twice; returns whether the second was answered from the store.
    static func reused(_ world: ConformanceWorld, _ path: String, _ headers: [(String, String)] = []) throws -> Bool {
        _ = try world.get(path, headers)
        let before = world.origin.requests.count
        let second = try world.get(path, headers)
        return world.origin.requests.count == before && second.cacheStatus.hit
    }

    @Test func theTargetedFieldWinsBothWays() throws {
        let world = try Self.world([
            "/cdn-long-cc-no-store": [("Cache-Control", "no-store"), ("CDN-Cache-Control", "max-age=10000")],
            "/cdn-no-store": [("Cache-Control", "max-age=10000"), ("Expires", Self.future), ("CDN-Cache-Control", "no-store")],
            "/cdn-private": [("Cache-Control", "max-age=10000"), ("Expires", Self.future), ("CDN-Cache-Control", "private")],
            "/cdn-no-cache": [("Cache-Control", "max-age=10000"), ("Expires", Self.future), ("CDN-Cache-Control", "no-cache")],
            "/cdn-zero": [("Expires", Self.future), ("CDN-Cache-Control", "max-age=0")],
            "/cdn-short": [("Cache-Control", "max-age=3600"), ("CDN-Cache-Control", "max-age=1"), ("Age", "5")],
            "/cdn-long": [("Cache-Control", "max-age=1"), ("CDN-Cache-Control", "max-age=3600"), ("Age", "5")],
            "/cdn-past-expires": [("Expires", "Mon, 01 Jan 2001 00:00:00 GMT"), ("CDN-Cache-Control", "max-age=3600")],
            "/cdn-case": [("Cache-Control", "no-store"), ("CDN-Cache-Control", "MaX-aGe=3600")],
            "/cdn-extension": [("Cache-Control", "no-store"), ("CDN-Cache-Control", "foobar, max-age=3600")],
            "/cdn-huge": [("CDN-Cache-Control", "max-age=99999999999")],
        ])
        defer { world.tearDown() }
        #expect(try Self.reused(world, "/cdn-long-cc-no-store"))
        #expect(try !Self.reused(world, "/cdn-no-store"))
        #expect(try !Self.reused(world, "/cdn-private"))
        #expect(try !Self.reused(world, "/cdn-no-cache"))
        #expect(try !Self.reused(world, "/cdn-zero"))
        #expect(try !Self.reused(world, "/cdn-short"))
        #expect(try Self.reused(world, "/cdn-long"))
        #expect(try Self.reused(world, "/cdn-past-expires"))
        #expect(try Self.reused(world, "/cdn-case"))
        #expect(try Self.reused(world, "/cdn-extension"))
        #expect(try Self.reused(world, "/cdn-huge"))
    }

    /// RFC 9213 §2.1: a value that is not a valid Dictionary, or a known directive of the wrong type, is ignored
    /// as a whole; `Cache-Control` then applies (here `no-store`).
    @Test func anInvalidTargetedFieldIsIgnored() throws {
        let world = try Self.world([
            "/bad-syntax": [("CDN-Cache-Control", "max-age=10000, &&&&&"), ("Cache-Control", "no-store")],
            "/bad-type": [("CDN-Cache-Control", "max-age=\"10000\""), ("Cache-Control", "no-store")],
            "/space-before": [("Cache-Control", "max-age=1"), ("CDN-Cache-Control", "max-age =100"), ("Age", "5")],
            "/space-after": [("Cache-Control", "max-age=1"), ("CDN-Cache-Control", "max-age= 100"), ("Age", "5")],
            "/negative": [("CDN-Cache-Control", "max-age=-5"), ("Cache-Control", "no-store")],
        ])
        defer { world.tearDown() }
        for path in ["/bad-syntax", "/bad-type", "/space-before", "/space-after", "/negative"] {
            #expect(try !Self.reused(world, path), "\(path)")
        }
    }

    /// A tier's `targetedCacheControl` sets the list: the first field with a valid value wins; a private tier
    /// honours none by default.
    @Test func theTierListDecidesWhichFieldsCount() throws {
        let table: [String: [(String, String)]] = [
            "/ours-first": [("CDN-Cache-Control", "max-age=3600"), ("Mediactl-Cache-Control", "no-store")],
            "/ours-invalid": [("CDN-Cache-Control", "max-age=3600"), ("Mediactl-Cache-Control", "max-age=\"x\""),
                              ("Cache-Control", "no-store")],
        ]
        let world = try Self.world(tier: ["targetedCacheControl": "[\"Mediactl-Cache-Control\", \"CDN-Cache-Control\"]"], table)
        defer { world.tearDown() }
        #expect(try !Self.reused(world, "/ours-first"))
        #expect(try Self.reused(world, "/ours-invalid"))

        let privateWorld = try Self.world(tier: ["cache": "\"private\"", "partition": "\"credential\""], [
            "/private-tier": [("Cache-Control", "max-age=3600"), ("CDN-Cache-Control", "no-store")],
        ])
        defer { privateWorld.tearDown() }
        #expect(try Self.reused(privateWorld, "/private-tier", [("Authorization", "Bearer t1")]))
    }

    /// The field passes downstream on a generic tier (a CDN in front of mediactl may want it), with the
    /// origin's `Cache-Control` unchanged. (`foo` is a valid targeted value without freshness: it replaces
    /// `max-age=10000`, so the stored response is stale at once.)
    @Test func theFieldIsForwardedDownstream() throws {
        let world = try Self.world([
            "/fwd": [("Cache-Control", "max-age=10000"), ("CDN-Cache-Control", "foo")],
            "/fwd-fresh": [("Cache-Control", "max-age=10"), ("CDN-Cache-Control", "max-age=10000")],
        ])
        defer { world.tearDown() }
        let miss = try world.get("/fwd")
        #expect(miss.header("CDN-Cache-Control") == "foo")
        #expect(miss.header("Cache-Control") == "max-age=10000")
        let again = try world.get("/fwd")
        #expect(again.header("CDN-Cache-Control") == "foo")
        #expect(again.text == "/fwd#1")
        _ = try world.get("/fwd-fresh")
        let hit = try world.get("/fwd-fresh")
        #expect(hit.cacheStatus.hit)
        #expect(hit.header("CDN-Cache-Control") == "max-age=10000")
        #expect(hit.header("Cache-Control") == "max-age=10")
    }
}

/// RFC 9111 §3.1: with `"setCookie": "store"` a generic shared tier stores and replays `Set-Cookie`; the default
/// refuses to store such answers (C08).
@Suite(.serialized)
struct ConformanceSetCookieTests {
    @Test func storedWithSetCookieOnlyWhenTheTierSaysSo() throws {
        let handler: @Sendable (ScriptedOrigin.Request, Int, ScriptedOrigin.Connection) -> Void = { _, index, connection in
            connection.respond(200, [("Cache-Control", "max-age=3600"), ("Set-Cookie", "a=b")], text: "c\(index)")
        }
        let storing = try ConformanceWorld(tier: ["setCookie": "\"store\""], handler: handler)
        defer { storing.tearDown() }
        _ = try storing.get("/cookie")
        let hit = try storing.get("/cookie")
        #expect(hit.cacheStatus.hit)
        #expect(hit.text == "c0")
        #expect(hit.headers("Set-Cookie") == ["a=b"])
        #expect(storing.origin.requests.count == 1)

        let refusing = try ConformanceWorld(handler: handler)
        defer { refusing.tearDown() }
        #expect(try refusing.get("/cookie").headers("Set-Cookie") == ["a=b"])
        let again = try refusing.get("/cookie")
        #expect(again.text == "c1")
        #expect(refusing.origin.requests.count == 2)
    }
}
