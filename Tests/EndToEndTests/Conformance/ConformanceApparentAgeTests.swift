import Foundation
import MediaTestSupport
import Testing

/// The tier's TTL cap counts the apparent age from `Date` (RFC 9111 §4.2.3), as it counts `Age`: against the built
/// binary with a scripted origin whose `Date` is in 1970 and `Expires` in 9999.
@Suite(.serialized)
struct ConformanceApparentAgeTests {
    @Test func aDateIn1970IsNeverStoredUnderAOneHourCap() throws {
        let world = try ConformanceWorld(tier: ["maxTTL": "3600"]) { _, index, connection in
            connection.respond(200, [("Date", "Thu, 01 Jan 1970 00:00:00 GMT"), ("Expires", "Fri, 31 Dec 9999 23:59:59 GMT"),
                                     ("Content-Type", "text/plain")], text: "answer-\(index)")
        }
        defer { world.tearDown() }
        let first = try RawHTTP.get(port: world.serve.port, "/old")
        #expect(first.status == 200)
        #expect(first.header("Cache-Status") == "mediactl; fwd=uri-miss; fwd-status=200; detail=age-over-max-ttl")
        let second = try RawHTTP.get(port: world.serve.port, "/old")
        #expect(second.text == "answer-1")
        #expect(second.header("Cache-Status")?.hasPrefix("mediactl; fwd=uri-miss") == true)
    }
}
