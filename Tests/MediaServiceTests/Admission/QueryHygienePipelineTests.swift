import HTTPCaching
import MediaCore
import MediaService
import MediaTestSupport
import Testing

/// `ignoredQueryParameters` and `passQueryParameters` through the pipeline (docs/policy-format.md, "Query
/// parameters"): what is keyed, what the origin is asked for, and what is still refused.
@Suite struct QueryHygienePipelineTests {
    static let variants = #"{ "widths": [72, 144, 288], "formats": ["jpeg", "webp"], "quality": 80 }"#
    static let policy = """
    { "tiers": {
        "public": { "storage": "disk", "maxTTL": 31536000, "variants": \(variants),
                    "ignoredQueryParameters": ["utm_*", "fbclid", "gclid"], "passQueryParameters": ["v"] },
        "plain":  { "storage": "disk", "maxTTL": 31536000, "ignoredQueryParameters": ["utm_*"] } },
      "routes": [
        { "name": "large",   "mount": "/large/",   "origin": "http://origin.test/large/",   "tier": "public" },
        { "name": "catalog", "mount": "/catalog/", "origin": "http://origin.test/catalog/", "tier": "plain" } ] }
    """
    static let fields = HTTPFields([("Content-Type", "image/jpeg"), ("Cache-Control", "max-age=3600")])

    static func harness() throws -> PipelineHarness {
        let harness = try PipelineHarness(policyJSON: policy)
        let hubble = try Fixtures.bytes("large/hubble-1000.jpg")
        let coins = try Fixtures.bytes("catalog/coins-1fea11f1.jpg")
        for url in ["http://origin.test/large/hubble-1000.jpg", "http://origin.test/large/hubble-1000.jpg?v=3",
                    "http://origin.test/catalog/coins.jpg", "http://origin.test/catalog/coins.jpg?size=2"] {
            harness.origin.setReply(.init(fields: fields, body: url.contains("large") ? hubble : coins), for: url)
        }
        return harness
    }

    @Test func trackingParametersShareTheStoredResponseAndNeverReachTheOrigin() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.close() } }
        let first = await harness.get("/catalog/coins.jpg?utm_source=news&utm_medium=mail")
        #expect(first.status == 200)
        #expect(first.fields[.cacheStatus] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=3600; stored; detail=disk")
        // The same stored response, whatever the tracking parameters: the memory-hit path and the full path agree.
        for target in ["/catalog/coins.jpg", "/catalog/coins.jpg?utm_campaign=x", "/catalog/coins.jpg?utm_source=news&utm_medium=mail"] {
            #expect(await harness.get(target).fields[.cacheStatus] == "mediactl; hit; ttl=3600", "\(target)")
        }
        // A parameter the tier does not ignore is kept, keyed and sent: a different object.
        let sized = await harness.get("/catalog/coins.jpg?utm_source=x&size=2&utm_term=y")
        #expect(sized.fields[.cacheStatus] == "mediactl; fwd=uri-miss; fwd-status=200; ttl=3600; stored; detail=disk")
        // fbclid is not ignored on this tier (only utm_*).
        let tracked = await harness.get("/catalog/coins.jpg?fbclid=1")
        #expect(tracked.status == 404)
        #expect(harness.origin.requests.map(\.url) == [
            "http://origin.test/catalog/coins.jpg", "http://origin.test/catalog/coins.jpg?size=2",
            "http://origin.test/catalog/coins.jpg?fbclid=1",
        ])
        let stores = try harness.auditRecords().filter { $0.event == .store }
        #expect(stores.count == 2)
    }

    @Test func aVariantTierIgnoresTrackingAndKeysPassedParameters() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.close() } }
        let variant = await harness.get("/large/hubble-1000.jpg?w=144&utm_source=x&fbclid=y")
        #expect(variant.status == 200)
        #expect(variant.outcome.variant == "w=144,fit=inside,fmt=jpeg,q=80")
        #expect(await harness.get("/large/hubble-1000.jpg?gclid=z&w=144").fields[.cacheStatus]?.hasPrefix("mediactl; hit") == true)
        // v is passed: keyed with the variant and sent with the source fetch.
        let versioned = await harness.get("/large/hubble-1000.jpg?w=144&v=3&utm_medium=mail")
        #expect(versioned.status == 200)
        #expect(versioned.fields[.cacheStatus]?.hasPrefix("mediactl; fwd=uri-miss") == true)
        #expect(await harness.get("/large/hubble-1000.jpg?v=3&w=144").fields[.cacheStatus]?.hasPrefix("mediactl; hit") == true)
        #expect(harness.origin.requests.map(\.url) == [
            "http://origin.test/large/hubble-1000.jpg", "http://origin.test/large/hubble-1000.jpg?v=3",
        ])
    }

    @Test func anythingElseIsStillRefusedByName() async throws {
        let harness = try Self.harness()
        defer { Task { await harness.close() } }
        let refused = await harness.get("/large/hubble-1000.jpg?w=144&utm_source=x&ref=home")
        #expect(refused.status == 400)
        #expect(refused.fields[.contentType] == "application/problem+json")
        #expect(String(decoding: refused.body, as: UTF8.self).contains(
            #""detail":"ref=home is not allowed: a parameter must be one of w, h, fit, dpr, q, fmt, gravity, profile, info, v""#))
        let zero = await harness.get("/large/hubble-1000.jpg?w=0144")
        #expect(zero.status == 400)
        #expect(String(decoding: zero.body, as: UTF8.self).contains(
            #""detail":"w=0144 is not allowed: w must be an integer from 1 to 999999999 in plain digits (no sign, leading zero, fraction or exponent)""#))
        #expect(harness.origin.requests.isEmpty)
    }
}
