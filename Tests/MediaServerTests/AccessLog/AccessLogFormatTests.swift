import MediaPolicy
import MediaTestSupport
import Testing

@testable import MediaServer
import MediaService

/// The exact line of each kind of request (docs/operations.md, "Access log").
@Suite struct AccessLogFormatTests {
    /// Paths in clear for `public` only; the digest is a visible stand-in so the input can be checked.
    static let format = AccessLogFormat(clearPathTiers: ["public"]) { "digest(\($0))" }
    /// 2026-12-02T04:30:57.123Z.
    static let time: Int64 = 1_796_185_857_123

    @Test func publicHitKeepsPathAndQuery() {
        let entry = AccessLogEntry(
            milliseconds: Self.time, id: 7, method: "GET", target: "/catalog/a.jpg?v=2", status: 200, bytes: 1234,
            durationMicroseconds: 85, route: "catalog", tier: "public", cacheStatus: "mediactl; hit; ttl=3400")
        #expect(String(decoding: Self.format.line(entry), as: UTF8.self) == """
            {"time":"2026-12-02T04:30:57.123Z","id":7,"method":"GET","route":"catalog","tier":"public","path":"/catalog/a.jpg?v=2","status":200,"bytes":1234,"duration_us":85,"cache":"hit"}

            """)
    }

    @Test func missWithOriginAndVariant() {
        let entry = AccessLogEntry(
            milliseconds: Self.time, id: 8, method: "GET", target: "/catalog/a.jpg?w=144", status: 200, bytes: 900,
            durationMicroseconds: 4_210, route: "catalog", tier: "public", cacheStatus: "mediactl; fwd=uri-miss; stored",
            variant: "w=144,fit=inside,fmt=jpeg,q=80", originStatus: 200, originMicroseconds: 3_950)
        #expect(String(decoding: Self.format.line(entry), as: UTF8.self) == """
            {"time":"2026-12-02T04:30:57.123Z","id":8,"method":"GET","route":"catalog","tier":"public","path":"/catalog/a.jpg?w=144","status":200,"bytes":900,"duration_us":4210,"cache":"miss","origin_status":200,"origin_us":3950,"variant":"w=144,fit=inside,fmt=jpeg,q=80"}

            """)
    }

    @Test func partitionedTierGetsPathDigestWithoutQueryAndThePartition() {
        let entry = AccessLogEntry(
            milliseconds: Self.time, id: 9, method: "GET", target: "/receipts/r-1001.png?sig=secret", status: 200,
            bytes: 10, durationMicroseconds: 3, route: "receipts", tier: "private",
            cacheStatus: "mediactl; fwd=uri-miss; stored", partition: String(repeating: "ab", count: 32),
            originStatus: 200, originMicroseconds: 2)
        let line = String(decoding: Self.format.line(entry), as: UTF8.self)
        #expect(line == """
            {"time":"2026-12-02T04:30:57.123Z","id":9,"method":"GET","route":"receipts","tier":"private","path_digest":"digest(/receipts/r-1001.png)","status":200,"bytes":10,"duration_us":3,"cache":"miss","origin_status":200,"origin_us":2,"partition":"\(String(repeating: "ab", count: 32))"}

            """)
        #expect(!line.contains("secret"))
    }

    @Test func noRouteIsDigestedAndRefused() {
        let entry = AccessLogEntry(
            milliseconds: Self.time, id: 1, method: "GET", target: "/nowhere/x.jpg?q=1", status: 404, bytes: 120,
            durationMicroseconds: 12)
        #expect(String(decoding: Self.format.line(entry), as: UTF8.self) == """
            {"time":"2026-12-02T04:30:57.123Z","id":1,"method":"GET","route":null,"tier":null,"path_digest":"digest(/nowhere/x.jpg)","status":404,"bytes":120,"duration_us":12,"cache":"refused"}

            """)
    }

    @Test func internalEndpointPathInClearWithoutQuery() {
        let entry = AccessLogEntry(
            milliseconds: Self.time, id: 2, method: "HEAD", target: "/_mediactl/health?verbose=1", status: 200,
            bytes: 0, durationMicroseconds: 5)
        #expect(String(decoding: Self.format.line(entry), as: UTF8.self) == """
            {"time":"2026-12-02T04:30:57.123Z","id":2,"method":"HEAD","route":null,"tier":null,"path":"/_mediactl/health","status":200,"bytes":0,"duration_us":5,"cache":null}

            """)
    }

    @Test func requestRefusedByTheHTTPParserHasNoMethodAndNoPath() {
        let entry = AccessLogEntry(milliseconds: Self.time, id: 4, method: nil, target: nil, status: 431, bytes: 150,
                                   durationMicroseconds: 0)
        #expect(String(decoding: Self.format.line(entry), as: UTF8.self) == """
            {"time":"2026-12-02T04:30:57.123Z","id":4,"method":null,"route":null,"tier":null,"path":null,"status":431,"bytes":150,"duration_us":0,"cache":"refused"}

            """)
    }

    @Test func stringsAreEscaped() {
        let entry = AccessLogEntry(
            milliseconds: 0, id: 3, method: "GET", target: "/catalog/\"q\"\\\u{1}\u{2028}é.jpg", status: 200, bytes: 1,
            durationMicroseconds: 0, route: "catalog", tier: "public", cacheStatus: "mediactl; hit; ttl=1")
        #expect(String(decoding: Self.format.line(entry), as: UTF8.self) == #"""
            {"time":"1970-01-01T00:00:00.000Z","id":3,"method":"GET","route":"catalog","tier":"public","path":"/catalog/\"q\"\\\u0001\u2028é.jpg","status":200,"bytes":1,"duration_us":0,"cache":"hit"}

            """#)
    }

    @Test func clearPathTiersFollowTheAuditURLRule() throws {
        let policies = try PolicyLoader().load(sources: [.init(name: "default.json", bytes: Array(TestFixtures.defaultPolicy.utf8))])
        #expect(AccessLogFormat.clearPathTiers(policies) == ["avatar", "public"])
    }
}

/// ``AccessLogCacheOutcome``: every `Cache-Status` shape the service sends.
@Suite struct AccessLogCacheOutcomeTests {
    @Test(arguments: [
        ("mediactl; hit; ttl=3400", 200, "hit"),
        ("mediactl; hit; ttl=-5; detail=stale-while-revalidate", 200, "stale"),
        ("mediactl; hit; ttl=-5; detail=max-stale", 200, "stale"),
        ("mediactl; hit; ttl=0", 304, "stale"),
        ("mediactl; fwd=stale; fwd-status=500; ttl=-3; detail=stale-if-error", 200, "stale"),
        ("mediactl; fwd=uri-miss; stored", 200, "miss"),
        ("mediactl; fwd=uri-miss; detail=no-store", 200, "miss"),
        ("mediactl; fwd=vary-miss; stored", 200, "miss"),
        ("mediactl; fwd=request; stored", 200, "miss"),
        ("mediactl; fwd=uri-miss; fwd-status=304", 304, "miss"),
        ("mediactl; fwd=method; fwd-status=201", 201, "miss"),
        ("mediactl; fwd=stale; fwd-status=304; ttl=60", 200, "revalidated"),
        ("mediactl; fwd=request; fwd-status=304; ttl=60", 304, "revalidated"),
        ("mediactl; fwd=uri-miss; stored; collapsed", 200, "coalesced"),
        ("mediactl; fwd=stale; fwd-status=304; ttl=60; collapsed", 200, "coalesced"),
    ] as [(String, Int, String)])
    func mapsCacheStatus(value: String, status: Int, expected: String) {
        #expect(AccessLogCacheOutcome.of(cacheStatus: value, status: status)?.rawValue == expected)
    }

    @Test func withoutCacheStatus() {
        #expect(AccessLogCacheOutcome.of(cacheStatus: nil, status: 401) == .refused)
        #expect(AccessLogCacheOutcome.of(cacheStatus: nil, status: 502) == .refused)
        #expect(AccessLogCacheOutcome.of(cacheStatus: nil, status: 200) == nil)
    }
}
