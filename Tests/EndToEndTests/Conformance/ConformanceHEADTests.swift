import Foundation
import MediaTestSupport
import Testing

/// RFC 9111 §4.3.5 against the built binary in conformance mode: a client HEAD that must reach the origin is
/// written through as HEAD, and a 200 to it freshens the stored GET response it describes.
@Suite(.serialized)
struct ConformanceHEADTests {
    /// A stale stored GET (`max-age=1`, `Age: 5`) with `ETag: "a"` and `Template-A: 1`.
    static func staleGET(_ connection: ScriptedOrigin.Connection) {
        connection.respond(200, [("Cache-Control", "max-age=1"), ("Age", "5"), ("ETag", "\"a\""), ("Template-A", "1")],
                           text: "get-body")
    }

    @Test func aHEADMissIsWrittenThroughAndNotStored() throws {
        let world = try ConformanceWorld { request, _, connection in
            if request.method == "HEAD" {
                connection.respond(200, [("Cache-Control", "max-age=3600"), ("Content-Length", "8")], contentLength: false)
            } else {
                connection.respond(200, [("Cache-Control", "max-age=3600")], text: "get-body")
            }
        }
        defer { world.tearDown() }
        let head = try world.request("HEAD", "/h")
        #expect(head.status == 200)
        #expect(head.header("Content-Length") == "8")
        #expect(head.body.isEmpty)
        #expect(try world.get("/h").text == "get-body")
        #expect(world.origin.requests.map(\.method) == ["HEAD", "GET"])
    }

    @Test func aHEAD200FreshensTheStoredGETAndKeepsItsOtherFields() throws {
        let world = try ConformanceWorld { request, index, connection in
            if index == 0 { return Self.staleGET(connection) }
            let fields = request.target == "/update" ? [("Cache-Control", "max-age=1000"), ("ETag", "\"a\""), ("Template-A", "2")]
                : [("Cache-Control", "max-age=1000"), ("ETag", "\"a\"")]
            connection.respond(200, fields + [("Content-Length", "8")], contentLength: false)
        }
        defer { world.tearDown() }
        #expect(try world.get("/update").text == "get-body")
        let head = try world.request("HEAD", "/update")
        #expect(head.status == 200)
        #expect(head.header("Template-A") == "2")
        #expect(head.cacheStatus.parameters["detail"] == "head-update")
        #expect(world.origin.requests.last?.method == "HEAD")
        #expect(world.origin.requests.last?.header("If-None-Match") == "\"a\"")
        let hit = try world.get("/update")
        #expect(hit.cacheStatus.hit)
        #expect(hit.text == "get-body")
        #expect(hit.header("Template-A") == "2")
        #expect(hit.header("Cache-Control") == "max-age=1000")
        #expect(world.origin.requests.count == 2)
    }

    @Test func aHEADWithoutAFieldKeepsTheStoredOne() throws {
        let world = try ConformanceWorld { _, index, connection in
            if index == 0 { return Self.staleGET(connection) }
            connection.respond(200, [("Cache-Control", "max-age=1000"), ("Content-Length", "8")], contentLength: false)
        }
        defer { world.tearDown() }
        _ = try world.get("/retain")
        let head = try world.request("HEAD", "/retain")
        #expect(head.header("Template-A") == "1")
        #expect(try world.get("/retain").cacheStatus.hit)
    }

    @Test func aHEADForAnotherRepresentationLeavesTheStoredResponseStale() throws {
        let world = try ConformanceWorld { request, index, connection in
            if index == 0 { return Self.staleGET(connection) }
            if request.method == "HEAD" {
                connection.respond(200, [("Cache-Control", "max-age=1000"), ("ETag", "\"b\""), ("Content-Length", "9")],
                                   contentLength: false)
            } else {
                connection.respond(200, [("Cache-Control", "max-age=1000"), ("ETag", "\"b\"")], text: "new-body!")
            }
        }
        defer { world.tearDown() }
        _ = try world.get("/other")
        let head = try world.request("HEAD", "/other")
        #expect(head.header("ETag") == "\"b\"")
        #expect(head.header("Content-Length") == "9")
        let next = try world.get("/other")
        #expect(next.text == "new-body!")
        #expect(world.origin.requests.map(\.method) == ["GET", "HEAD", "GET"])
    }

    /// A HEAD that brings a validator the stored response lacks describes another representation: the stored GET
    /// response is invalidated (not given the new `ETag`), so the next GET is a URI miss, not a stale revalidation.
    @Test func aHEADWithANewValidatorInvalidatesTheStoredGET() throws {
        let world = try ConformanceWorld { request, index, connection in
            if index == 0 {
                connection.respond(200, [("Cache-Control", "max-age=1"), ("Age", "5")], text: "old-body")
            } else if request.method == "HEAD" {
                connection.respond(200, [("Cache-Control", "max-age=1000"), ("ETag", "\"v2\""), ("Content-Length", "8")],
                                   contentLength: false)
            } else {
                connection.respond(200, [("Cache-Control", "max-age=1000"), ("ETag", "\"v2\"")], text: "new-body")
            }
        }
        defer { world.tearDown() }
        _ = try world.get("/new-validator")
        #expect(try world.request("HEAD", "/new-validator").header("ETag") == "\"v2\"")
        let next = try world.get("/new-validator")
        #expect(next.text == "new-body")
        #expect(next.cacheStatus.parameters["fwd"] == "uri-miss")
        #expect(world.origin.requests.map(\.method) == ["GET", "HEAD", "GET"])
    }

    /// A HEAD answer a shared cache could not store (`private`) updates nothing.
    @Test func aPrivateHEADAnswerUpdatesNothing() throws {
        let world = try ConformanceWorld { request, index, connection in
            if index == 0 {
                Self.staleGET(connection)
            } else if request.method == "HEAD" {
                connection.respond(200, [("Cache-Control", "private, max-age=1000"), ("ETag", "\"a\""), ("Template-A", "9"),
                                         ("Content-Length", "8")], contentLength: false)
            } else {
                connection.respond(304, [("Cache-Control", "max-age=1000"), ("ETag", "\"a\"")], contentLength: false)
            }
        }
        defer { world.tearDown() }
        _ = try world.get("/private-head")
        #expect(try world.request("HEAD", "/private-head").header("Template-A") == "9")
        let next = try world.get("/private-head")
        #expect(next.header("Template-A") == "1")
        #expect(world.origin.requests.map(\.method) == ["GET", "HEAD", "GET"])
    }
}
