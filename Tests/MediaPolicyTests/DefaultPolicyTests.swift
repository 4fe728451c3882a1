import Testing
@testable import MediaPolicy

@Suite struct DefaultPolicyTests {
    static let variants = Tier.Variants(widths: [72, 144, 288, 576, 1152], formats: ["jpeg", "webp", "avif", "png"],
                                        maxDpr: 3, quality: 80,
                                        qualities: ["jpeg": 80, "webp": 85, "avif": 70, "jxl": 80])

    func loadDefault() throws -> PolicySet {
        try PolicyLoader().load(directory: PolicyFixture.repositoryRoot + "/Policies")
    }

    @Test func loadsTheFourTiersWithExactValues() throws {
        let policy = try loadDefault()
        #expect(policy.tiers.keys.sorted() == ["avatar", "no-store", "private", "public"])
        #expect(policy.tier(named: "public") == Tier(
            name: "public", storage: .disk, cache: .shared, credentials: .strip, partition: .none, maxTTL: 31_536_000,
            versionParameter: nil, unversionedMaxTTL: nil, maxObjectBytes: 10_485_760, maxPixels: 50_000_000,
            contentTypes: ["image/jpeg", "image/png", "image/gif", "image/webp", "image/avif"],
            downstreamCacheControl: "public, max-age=31536000, immutable", originTimeout: 15,
            memoryBytes: 67_108_864, diskBytes: 1_073_741_824, serveStaleOnError: 0, variants: DefaultPolicyTests.variants)
            .with(ignored: ["utm_*", "fbclid", "gclid"], passed: ["v"], errorTTL: ["404": 60, "410": 600, "refused": 60],
                  tagHeader: "Surrogate-Key"))
        #expect(policy.tier(named: "avatar") == Tier(
            name: "avatar", storage: .disk, cache: .shared, credentials: .strip, partition: .none, maxTTL: 31_536_000,
            versionParameter: "v", unversionedMaxTTL: 300, variants: DefaultPolicyTests.variants, metadata: .strip)
            .with(ignored: ["utm_*", "fbclid", "gclid"], passed: [], errorTTL: ["404": 30]))
        #expect(policy.tier(named: "private") == Tier(
            name: "private", storage: .encryptedDisk, cache: .private, credentials: .bearerRequired,
            partition: .credential, maxTTL: 600, downstreamCacheControl: "private, no-store",
            variants: DefaultPolicyTests.variants, metadata: .strip))
        #expect(policy.tier(named: "no-store") == Tier(name: "no-store", storage: .none))
    }

    @Test func defaultsOfAnUnsetTier() throws {
        let tier = try #require(try loadDefault().tier(named: "no-store"))
        #expect(tier.cache == .shared)
        #expect(tier.credentials == .strip)
        #expect(tier.partition == .none)
        #expect(tier.maxTTL == 86_400)
        #expect(tier.versionParameter == nil)
        #expect(tier.unversionedMaxTTL == nil)
        #expect(tier.maxObjectBytes == 10_485_760)
        #expect(tier.maxPixels == 50_000_000)
        #expect(tier.contentTypes == ["image/jpeg", "image/png", "image/gif", "image/webp", "image/avif"])
        #expect(tier.validatesImages == true)
        #expect(tier.downstreamCacheControl == nil)
        #expect(tier.originTimeout == 15)
        #expect(tier.memoryBytes == 67_108_864)
        #expect(tier.diskBytes == 1_073_741_824)
        #expect(tier.serveStaleOnError == 0)
    }

    @Test func loadsTheSixRoutesInOrder() throws {
        let policy = try loadDefault()
        let file = PolicyFixture.repositoryRoot + "/Policies/default.json"
        #expect(policy.files == [file])
        #expect(policy.routes == [
            Route(name: "catalog", mount: "/catalog/", origin: "http://127.0.0.1:8081/catalog/", tier: "public", file: file),
            Route(name: "large", mount: "/large/", origin: "http://127.0.0.1:8081/large/", tier: "public", file: file),
            Route(name: "avatars", mount: "/avatars/", origin: "http://127.0.0.1:8081/avatars/", tier: "avatar", file: file),
            Route(name: "uploads", mount: "/uploads/", origin: "http://127.0.0.1:8081/uploads/", tier: "avatar", file: file),
            Route(name: "receipts", mount: "/receipts/", origin: "http://127.0.0.1:8081/receipts/", tier: "private", file: file),
            Route(name: "one-time", mount: "/one-time/", origin: "http://127.0.0.1:8081/one-time/", tier: "no-store", file: file),
        ])
        #expect(policy.routes.allSatisfy { $0.methods == .read })
    }

    @Test func routesByPath() throws {
        let policy = try loadDefault()
        let match = try #require(policy.route(forPath: "/avatars/u1001.jpg"))
        #expect(match.route.name == "avatars")
        #expect(match.tier.name == "avatar")
        #expect(match.route.originURL(forPath: "/avatars/u1001.jpg") == "http://127.0.0.1:8081/avatars/u1001.jpg")
        #expect(policy.route(forPath: "/avatars") == nil)
        #expect(policy.route(forPath: "/nothing/a.jpg") == nil)
        #expect(policy.route(forPath: "/_mediactl/health") == nil)
        #expect(policy.route(named: "receipts")?.tier == "private")
        #expect(policy.route(named: "missing") == nil)
        #expect(Route(name: "a", mount: "/a/", origin: "http://o/", tier: "t").originURL(forPath: "/b/x") == nil)
    }

    @Test func downstreamCacheControlPerTier() throws {
        let policy = try loadDefault()
        #expect(policy.tiers["public"]?.downstreamCacheControl(origin: "max-age=60") == "public, max-age=31536000, immutable")
        #expect(policy.tiers["avatar"]?.downstreamCacheControl(origin: "max-age=60") == "max-age=60")
        #expect(policy.tiers["avatar"]?.downstreamCacheControl(origin: nil) == nil)
        #expect(policy.tiers["private"]?.downstreamCacheControl(origin: "public, max-age=60") == "private, no-store")
        #expect(policy.tiers["no-store"]?.downstreamCacheControl(origin: "max-age=600") == "no-store")
        let partitioned = Tier(name: "p", storage: .memory, cache: .private, credentials: .forward, partition: .credential)
        #expect(partitioned.downstreamCacheControl(origin: "max-age=60") == "private, no-store")
    }

    @Test func ttlCapHonoursTheVersionParameter() throws {
        let policy = try loadDefault()
        let avatar = try #require(policy.tiers["avatar"])
        #expect(avatar.ttlCap(versioned: false) == 300)
        #expect(avatar.ttlCap(versioned: true) == 31_536_000)
        #expect(policy.tiers["public"]?.ttlCap(versioned: false) == 31_536_000)
    }

    @Test func versionParameterInTheQuery() throws {
        let avatar = try #require(try loadDefault().tiers["avatar"])
        #expect(avatar.isVersioned(query: "v=3") == true)
        #expect(avatar.isVersioned(query: "size=2&v=abc") == true)
        #expect(avatar.isVersioned(query: "v=") == false)
        #expect(avatar.isVersioned(query: "v") == false)
        #expect(avatar.isVersioned(query: "V=3") == false)
        #expect(avatar.isVersioned(query: "vv=3&xv=1") == false)
        #expect(avatar.isVersioned(query: "") == false)
        #expect(avatar.isVersioned(query: nil) == false)
        #expect(try loadDefault().tiers["public"]?.isVersioned(query: "v=3") == false)
    }
}

extension Tier {
    /// This tier with its query parameter lists set.
    func with(ignored: [String], passed: [String], errorTTL: [String: Int], tagHeader: String? = nil) -> Tier {
        var tier = self
        tier.tagHeader = tagHeader
        tier.errorTTL = errorTTL
        tier.ignoredQueryParameters = ignored
        tier.passQueryParameters = passed
        return tier
    }
}
