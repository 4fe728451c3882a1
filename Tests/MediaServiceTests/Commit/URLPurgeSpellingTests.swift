import HTTPCaching
import MediaCore
import MediaService
import MediaTestSupport
import Testing

/// A purge keys its URL exactly as a request is keyed (one keying, docs/operations.md "Purging one URL"): for
/// generated spellings of one image (campaign parameters the tier ignores, in any order and position, empty `&` items,
/// a percent-encoded path), the spelling a client was served from and any other spelling served from the same entry
/// purge that entry, on a tier with variants, one without and a partitioned one.
@Suite struct URLPurgeSpellingTests {
    static let policy = """
    { "tiers": {
        "public":  { "storage": "disk", "maxTTL": 31536000, "ignoredQueryParameters": ["utm_*", "fbclid", "gclid"],
                     "passQueryParameters": ["v"],
                     "variants": { "widths": [72, 144], "formats": ["jpeg"], "quality": 80 } },
        "plain":   { "storage": "memory", "maxTTL": 3600, "ignoredQueryParameters": ["utm_*", "fbclid", "gclid"] },
        "private": { "storage": "encrypted-disk", "cache": "private", "credentials": "bearer-required",
                     "partition": "credential", "maxTTL": 600, "ignoredQueryParameters": ["utm_*", "fbclid", "gclid"] } },
      "routes": [
        { "name": "catalog", "mount": "/catalog/", "origin": "http://origin.test/catalog/", "tier": "public" },
        { "name": "plain", "mount": "/plain/", "origin": "http://origin.test/plain/", "tier": "plain" },
        { "name": "receipts", "mount": "/receipts/", "origin": "http://origin.test/receipts/", "tier": "private" } ] }
    """

    static let campaign = ["utm_source=newsletter", "utm_medium=email%20blast", "utm_campaign=", "fbclid=IwAR0x_Y",
                           "gclid=Cj0KCQ", "utm_content=a%2Fb"]

    /// A spelling of `path` (`/mount/name.jpg`) with `kept` query items (order kept among themselves): some campaign
    /// parameters at random positions, empty items (only where one is dropped with them, or on a variant tier),
    /// and the file name's first letter percent-encoded half the time.
    static func spelling(_ path: String, kept: [String], emptyItems: Bool, using random: inout SplitMix64) -> String {
        var items = kept
        for parameter in campaign.shuffled(using: &random).prefix(Int.random(in: 0...3, using: &random)) {
            items.insert(parameter, at: Int.random(in: 0...items.count, using: &random))
        }
        let dropsSome = items.count > kept.count
        if emptyItems || dropsSome {
            for _ in 0..<Int.random(in: 0...2, using: &random) {
                items.insert("", at: Int.random(in: 0...items.count, using: &random))
            }
        }
        var spelled = path
        if Bool.random(using: &random), let slash = path.lastIndex(of: "/") {
            let letter = path[path.index(after: slash)]
            let hex = String(letter.asciiValue!, radix: 16, uppercase: true)
            spelled = String(path[...slash]) + "%" + hex + String(path[path.index(slash, offsetBy: 2)...])
        }
        return items.isEmpty && !(dropsSome || emptyItems && Bool.random(using: &random))
            ? spelled : spelled + "?" + items.joined(separator: "&")
    }

    struct Resource {
        var path: String
        var kept: [String]
        var emptyItems: Bool
        var fields: [(String, String)] = []
        /// Stored responses one served spelling leaves: the source, and a variant with its source.
        var stored: Int
    }

    static let resources = [
        Resource(path: "/catalog/a.jpg", kept: [], emptyItems: true, stored: 1),
        Resource(path: "/catalog/a.jpg", kept: ["w=72"], emptyItems: true, stored: 2),
        Resource(path: "/catalog/a.jpg", kept: ["v=3", "w=144"], emptyItems: true, stored: 2),
        Resource(path: "/plain/p.jpg", kept: [], emptyItems: false, stored: 1),
        Resource(path: "/plain/p.jpg", kept: ["page=2"], emptyItems: false, stored: 1),
        Resource(path: "/receipts/r.jpg", kept: [], emptyItems: false, fields: [("Authorization", "Bearer t1")], stored: 1),
    ]

    @Test func everySpellingAClientIsServedFromPurgesItsEntry() async throws {
        let harness = try PipelineHarness(policyJSON: Self.policy)
        defer { Task { await harness.close() } }
        let coins = try Fixtures.bytes("catalog/coins-1fea11f1.jpg")
        for url in ["catalog/a.jpg", "catalog/a.jpg?v=3", "plain/p.jpg", "plain/p.jpg?page=2", "receipts/r.jpg"] {
            harness.origin.setReply(.init(fields: HTTPFields([("Content-Type", "image/jpeg"), ("Cache-Control", "max-age=3600")]),
                                          body: coins), for: "http://origin.test/\(url)")
        }
        var random = SplitMix64(state: 0x6d65_6469_6163_746c)
        for round in 0..<60 {
            let resource = Self.resources[round % Self.resources.count]
            let served = Self.spelling(resource.path, kept: resource.kept, emptyItems: resource.emptyItems, using: &random)
            let other = Self.spelling(resource.path, kept: resource.kept, emptyItems: resource.emptyItems, using: &random)
            #expect(await harness.get(served, resource.fields).status == 200, "\(served)")
            // The other spelling is served from the same entry...
            let hit = await harness.get(other, resource.fields)
            #expect(hit.fields[.cacheStatus]?.hasPrefix("mediactl; hit") == true, "\(served) then \(other)")
            // ...so purging either spelling removes it, with its source or its variants.
            let purged = round % 2 == 0 ? served : other
            #expect(try harness.service.purge(.url(purged)) == resource.stored, "served \(served), purged \(purged)")
            #expect(await harness.get(served, resource.fields).fields[.cacheStatus]?.hasPrefix("mediactl; hit") == false,
                    "\(served) after purging \(purged)")
            _ = try harness.service.purge(.all)
        }
    }

    @Test func aCampaignURLPurgesOnATierWithVariantsAndOneWithout() async throws {
        let harness = try PipelineHarness(policyJSON: Self.policy)
        defer { Task { await harness.close() } }
        let coins = try Fixtures.bytes("catalog/coins-1fea11f1.jpg")
        for url in ["catalog/a.jpg", "plain/p.jpg", "receipts/r.jpg"] {
            harness.origin.setReply(.init(fields: HTTPFields([("Content-Type", "image/jpeg"), ("Cache-Control", "max-age=3600")]),
                                          body: coins), for: "http://origin.test/\(url)")
        }
        #expect(await harness.get("/catalog/a.jpg?w=144").status == 200)
        #expect(await harness.get("/plain/p.jpg").status == 200)
        for token in ["t1", "t2"] {
            #expect(await harness.get("/receipts/r.jpg", [("Authorization", "Bearer \(token)")]).status == 200)
        }
        #expect(try harness.service.purge(.url("/catalog/a.jpg?utm_source=x&fbclid=1")) == 2)
        #expect(try harness.service.purge(.url("/plain/p.jpg?utm_source=x")) == 1)
        #expect(try harness.service.purge(.url("/receipts/r.jpg?fbclid=y")) == 2)
        #expect(try harness.service.purge(.url("/catalog/a.jpg?utm_source=x")) == 0)
        // What a request is refused, a purge is refused too.
        #expect(throws: ServiceError(.invalidURL, "variant-not-allowed: ref=home is not allowed: a parameter must be one of w, h, fit, dpr, q, fmt, gravity, profile, info, v")) {
            try harness.service.purge(.url("/catalog/a.jpg?utm_source=x&ref=home"))
        }
        #expect(await harness.get("/catalog/a.jpg?utm_source=x&ref=home").status == 400)
    }

    @Test func aSignedURLPurgesEveryPartitionsEntryWithoutBeingVerified() async throws {
        let world = try SignedURLWorld()
        defer { Task { await world.close() } }
        world.harness.origin.setReply(.init(fields: ["Cache-Control": "private, max-age=60"],
                                            body: PipelineSupport.markedPNG("MARK-A")),
                                      for: "http://origin.test/receipts/r.png?page=2")
        let alice = try world.sign("/receipts/r.png", query: "page=2", subject: "alice")
        let bob = try world.sign("/receipts/r.png", query: "page=2", subject: "bob")
        #expect(await world.harness.get(alice).status == 200)
        #expect(await world.harness.get(bob).status == 200)
        // A signed URL copied from a report, long expired: its signature parameters name no entry of their own.
        world.harness.clock.advance(3600)
        #expect(try world.harness.service.purge(.url(alice)) == 2)
        #expect(try world.harness.service.purge(.url("/receipts/r.png?page=2")) == 0)
    }
}
