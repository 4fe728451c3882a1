import Foundation
import Testing

/// RFC 9110 §14 (ranges) and §13.1.5 (`If-Range`) against the built binary in conformance mode, with a
/// scripted origin: ranges of a stored complete response (cache-tests `partial.mjs`), `416`, ignored ranges,
/// a validated response answering a range with its updated fields, and a miss passing the origin's `206` through.
@Suite(.serialized)
struct ConformanceRangeTests {
    static let body = "01234567890"

    /// A world whose origin answers every request with ``body``, `max-age=3600`, `ETag: "r1"` and `A: 1`.
    private func storedWorld() throws -> ConformanceWorld {
        try ConformanceWorld { _, _, connection in
            connection.respond(200, [("Cache-Control", "max-age=3600"), ("ETag", "\"r1\""), ("A", "1")], text: Self.body)
        }
    }

    /// cache-tests `partial-store-complete-reuse-partial` (byte-range-spec, absent last-byte-pos, suffix) and
    /// `partial-use-stored-headers`: one origin request, then `206` from the store with the stored fields.
    @Test(arguments: [
        ("bytes=0-1", "01", "bytes 0-1/11"), ("bytes=1-", "1234567890", "bytes 1-10/11"),
        ("bytes=-1", "0", "bytes 10-10/11"), ("bytes=0-999", "01234567890", "bytes 0-10/11"),
    ])
    func aStoredCompleteResponseServesARange(range: String, text: String, contentRange: String) throws {
        let world = try storedWorld()
        defer { world.tearDown() }
        let whole = try world.get("/r")
        #expect(whole.status == 200)
        #expect(whole.header("Accept-Ranges") == "bytes")
        let partial = try world.get("/r", [("Range", range)])
        #expect(partial.status == 206)
        #expect(partial.text == text)
        #expect(partial.header("Content-Range") == contentRange)
        #expect(partial.header("Content-Length") == String(text.utf8.count))
        #expect(partial.header("A") == "1")
        #expect(partial.header("ETag") == "\"r1\"")
        #expect(partial.cacheStatus.hit)
        #expect(world.origin.requests.count == 1)
    }

    @Test func noSatisfiableRangeIs416AndInvalidOrSeveralRangesAreIgnored() throws {
        let world = try storedWorld()
        defer { world.tearDown() }
        _ = try world.get("/r")
        let refused = try world.get("/r", [("Range", "bytes=11-")])
        #expect(refused.status == 416)
        #expect(refused.header("Content-Range") == "bytes */11")
        #expect(refused.problemCode == "range-not-satisfiable")
        for ignored in ["bytes=5-3", "items=0-1", "bytes=0-1,5-6"] {
            let whole = try world.get("/r", [("Range", ignored)])
            #expect(whole.status == 200)
            #expect(whole.text == Self.body)
            #expect(whole.header("Content-Range") == nil)
        }
        let head = try world.request("HEAD", "/r", [("Range", "bytes=0-1")])
        #expect(head.status == 200)
        #expect(head.header("Content-Length") == "11")
        #expect(head.body.isEmpty)
        #expect(world.origin.requests.count == 1)
    }

    @Test func ifRangeAppliesTheRangeOnlyForTheStoredStrongEntityTag() throws {
        let world = try storedWorld()
        defer { world.tearDown() }
        _ = try world.get("/r")
        let matching = try world.get("/r", [("Range", "bytes=2-4"), ("If-Range", "\"r1\"")])
        #expect(matching.status == 206)
        #expect(matching.text == "234")
        let changed = try world.get("/r", [("Range", "bytes=2-4"), ("If-Range", "\"r0\"")])
        #expect(changed.status == 200)
        #expect(changed.text == Self.body)
        let weak = try world.get("/r", [("Range", "bytes=2-4"), ("If-Range", "W/\"r1\"")])
        #expect(weak.status == 200)
        #expect(world.origin.requests.count == 1)
    }

    /// cache-tests `partial-use-headers` with validation: a stale response is validated without the client's
    /// `Range`; the `304`'s `A: 2` replaces the stored `A: 1`, `B` (not in the `304`) stays (RFC 9111 §3.2, §4.3.4).
    @Test func aValidatedResponseAnswersTheRangeWithTheNewFields() throws {
        let world = try ConformanceWorld { request, index, connection in
            if index == 0 {
                connection.respond(200, [("Cache-Control", "max-age=0"), ("ETag", "\"r1\""), ("A", "1"), ("B", "kept")],
                                   text: Self.body)
            } else {
                connection.respond(304, [("Cache-Control", "max-age=3600"), ("ETag", "\"r1\""), ("A", "2")],
                                   contentLength: false)
            }
        }
        defer { world.tearDown() }
        _ = try world.get("/v")
        // Stored with max-age=0: stale at once, so the range request validates it.
        let partial = try world.get("/v", [("Range", "bytes=0-1")])
        #expect(partial.status == 206)
        #expect(partial.text == "01")
        #expect(partial.header("Content-Range") == "bytes 0-1/11")
        #expect(partial.header("A") == "2")
        #expect(partial.header("B") == "kept")
        #expect(partial.cacheStatus.forwardStatus == "304")
        #expect(world.origin.requests.count == 2)
        let validation = try #require(world.origin.requests.last)
        #expect(validation.header("If-None-Match") == "\"r1\"")
        #expect(validation.header("Range") == nil)
        let hit = try world.get("/v", [("Range", "bytes=-2")])
        #expect(hit.status == 206)
        #expect(hit.text == "90")
        #expect(hit.header("A") == "2")
        #expect(hit.cacheStatus.hit)
        #expect(world.origin.requests.count == 2)
    }

    /// A miss forwards `Range`; the origin's `206` reaches the client as sent and is not stored (§3.4 optional).
    @Test func aMissPassesTheOrigins206Through() throws {
        let world = try ConformanceWorld { request, _, connection in
            if request.header("Range") == "bytes=0-1" {
                connection.respond(206, [("Cache-Control", "max-age=3600"), ("Content-Range", "bytes 0-1/11")], text: "01")
            } else {
                connection.respond(200, [("Cache-Control", "max-age=3600")], text: Self.body)
            }
        }
        defer { world.tearDown() }
        let partial = try world.get("/m", [("Range", "bytes=0-1")])
        #expect(partial.status == 206)
        #expect(partial.text == "01")
        #expect(partial.header("Content-Range") == "bytes 0-1/11")
        #expect(partial.header("Content-Length") == "2")
        #expect(partial.cacheStatus.stored == false)
        #expect(world.origin.requests.first?.header("Range") == "bytes=0-1")
        let whole = try world.get("/m")
        #expect(whole.status == 200)
        #expect(whole.text == Self.body)
        #expect(world.origin.requests.count == 2)
    }
}

/// Ranges on an image tier with the real nginx origin: the cache fetches (and validates, stores) the whole
/// image, never forwarding `Range`, and cuts each range from it.
@Suite(.enabled(if: NginxOrigin.isAvailable, "nginx is installed by scripts/test"), .serialized)
struct ImageTierRangeTests {
    static let horse = "catalog/horse-d29d871c.jpg"

    @Test func rangesOfAStoredImage() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        try world.start()
        let image = Fixtures.bytes(Self.horse)
        let first = try world.get("/" + Self.horse, headers: [("Range", "bytes=0-1023")])
        #expect(first.status == 206)
        #expect(first.body == Array(image[0..<1024]))
        #expect(first.header("Content-Range") == "bytes 0-1023/\(image.count)")
        #expect(first.header("Content-Type") == "image/jpeg")
        #expect(first.cacheStatus.stored)
        let tail = try world.get("/" + Self.horse, headers: [("Range", "bytes=1024-")])
        #expect(tail.status == 206)
        #expect(tail.body == Array(image[1024...]))
        #expect(tail.cacheStatus.hit)
        let beyond = try world.get("/" + Self.horse, headers: [("Range", "bytes=\(image.count)-")])
        #expect(beyond.status == 416)
        #expect(beyond.header("Content-Range") == "bytes */\(image.count)")
        let plain = try world.get("/" + Self.horse)
        #expect(plain.status == 200)
        #expect(plain.header("Accept-Ranges") == "bytes")
        // nginx saw one whole-image GET (it would have answered 206 to a forwarded Range).
        #expect(world.origin.accessLog(prefix: "/" + Self.horse, count: 1) == ["/\(Self.horse) auth=- inm=- xfh=- fwd=- status=200"])
    }
}

extension ConformanceRangeTests {
    /// An origin's `416` (here with explicit freshness) answers only that Range request: it is not stored, and
    /// a plain GET of the URL gets the whole representation.
    @Test func anOrigin416IsNeverStoredForPlainRequests() throws {
        let world = try ConformanceWorld { request, _, connection in
            if request.header("Range") != nil {
                connection.respond(416, [("Cache-Control", "max-age=3600"), ("Content-Range", "bytes */11")], text: "")
            } else {
                connection.respond(200, [("Cache-Control", "max-age=3600")], text: Self.body)
            }
        }
        defer { world.tearDown() }
        let refused = try world.get("/r416", [("Range", "bytes=50-60")])
        #expect(refused.status == 416)
        #expect(refused.cacheStatus.stored == false)
        let whole = try world.get("/r416")
        #expect(whole.status == 200)
        #expect(whole.text == Self.body)
        #expect(world.origin.requests.count == 2)
    }
}
