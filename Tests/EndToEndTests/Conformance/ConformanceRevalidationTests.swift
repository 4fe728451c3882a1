import Foundation
import Testing

/// RFC 9111 revalidation against the built binary in conformance mode, with a scripted origin for the
/// answers nginx cannot give (a bare `304`, a list-valued `Age`).
@Suite(.serialized)
struct ConformanceRevalidationTests {
    /// §4.3.3–4.3.4, RFC 9110 §13.1: a `304` without validators answers the conditional the cache sent
    /// for one stored response and freshens that response; the origin sees one request per use.
    @Test(arguments: [[("Cache-Control", "no-cache")], [("Cache-Control", "no-cache"), ("Vary", "Abc")]])
    func aBare304UpdatesTheStoredResponse(fields: [(String, String)]) throws {
        let world = try ConformanceWorld { request, index, connection in
            if index == 0 {
                connection.respond(200, [("ETag", "\"v1\""), ("X-Version", "first")] + fields, text: "body-1")
            } else {
                connection.respond(304, [("X-Version", "second")], contentLength: false)
            }
        }
        defer { world.tearDown() }
        let headers = [("Abc", "a")]
        let first = try world.get("/bare304", headers)
        #expect(first.status == 200)
        #expect(first.text == "body-1")
        let second = try world.get("/bare304", headers)
        #expect(second.status == 200)
        #expect(second.text == "body-1")
        #expect(second.header("X-Version") == "second")
        #expect(second.header("ETag") == "\"v1\"")
        #expect(second.cacheStatus.forwardStatus == "304")
        #expect(world.origin.requests.count == 2)
        #expect(world.origin.requests.last?.header("If-None-Match") == "\"v1\"")
        // §4.3.1: the conditional carries the request fields the stored response's Vary names.
        #expect(world.origin.requests.last?.header("Abc") == "a")
    }

    /// §5.1: a list-valued `Age` counts by its first member: `Age: 7200, 0` with `max-age=3600` is stale.
    @Test func aListValuedAgeUsesItsFirstMember() throws {
        let world = try ConformanceWorld { _, index, connection in
            connection.respond(200, [("Cache-Control", "max-age=3600"), ("Age", "7200, 0")], text: "copy-\(index)")
        }
        defer { world.tearDown() }
        #expect(try world.get("/aged").text == "copy-0")
        let again = try world.get("/aged")
        #expect(again.text == "copy-1")
        #expect(again.cacheStatus.hit == false)
        #expect(world.origin.requests.count == 2)
    }
}
