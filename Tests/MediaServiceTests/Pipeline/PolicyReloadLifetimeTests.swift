import HTTPCaching
import MediaAudit
import MediaCore
import MediaPolicy
import MediaTestSupport
import Testing

@testable import MediaService

/// A reload that lowers a tier's `maxTTL` removes only the stored responses whose freshness lifetime exceeds the
/// new cap (docs/operations.md, "Reloading policies"), not every entry kept for revalidation past its lifetime.
@Suite struct PolicyReloadLifetimeTests {
    static func policies(_ json: String) throws -> PolicySet {
        try PolicyLoader().load(sources: [.init(name: "Policies/test.json", bytes: Array(json.utf8))])
    }

    static func edited(_ text: String, _ pairs: [(String, String)]) -> String {
        pairs.reduce(text) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
    }

    static let avatarTier = #""versionParameter": "v", "unversionedMaxTTL": 300, "maxTTL": 31536000"#
    static let publicTier = #""maxTTL": 31536000, "maxObjectBytes": 10485760"#

    func cacheStatus(_ harness: PipelineHarness, _ target: String) async -> String? {
        await harness.get(target).fields[.cacheStatus]
    }

    func purges(_ harness: PipelineHarness) throws -> [String] {
        let records = try harness.auditRecords(includingPolicy: true)
        let reload = try #require(records.lastIndex { $0.event == .policy && $0.tier == nil })
        return records[reload...].filter { $0.event == .purge }
            .map { "\($0.tier?.rawValue ?? "-"):\($0.reason?.rawValue ?? "-"):\($0.count.map(String.init) ?? "-")" }
    }

    /// The avatar tier from 31,536,000 s to 31,000,000 s keeps a versioned avatar stored with `ttl=3600`.
    @Test func aSlightlyLowerCapKeepsAnAvatarOfAnHour() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let jpeg = try Fixtures.bytes("catalog/coins-1fea11f1.jpg")
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=3600", "ETag": "\"a1\""], body: jpeg),
                                for: "http://origin.test/avatars/u.jpg?v=2")
        #expect(await cacheStatus(harness, "/avatars/u.jpg?v=2") == "mediactl; fwd=uri-miss; fwd-status=200; ttl=3600; stored; detail=disk")
        let lower = Self.edited(PipelineHarness.defaultPolicy, [
            (Self.avatarTier, #""versionParameter": "v", "unversionedMaxTTL": 300, "maxTTL": 31000000"#)])
        let report = try harness.service.reload(policies: try Self.policies(lower), digest: String(repeating: "ab", count: 32))
        #expect(report.updatedTiers == ["avatar"])
        #expect(report.removedObjects == 0)
        #expect(try purges(harness) == [])
        #expect(await cacheStatus(harness, "/avatars/u.jpg?v=2") == "mediactl; hit; ttl=3600")
        #expect(harness.origin.callCount(for: "http://origin.test/avatars/u.jpg?v=2") == 1)
    }

    /// The catalog tier from 3600 s to 1800 s keeps an image whose heuristic lifetime is 48 s (10 % of a
    /// `Last-Modified` 480 s old) and removes the one stored for 3600 s, audited `policy-max-ttl-shortened`.
    @Test func halvingTheCatalogCapRemovesOnlyTheHourLongEntry() async throws {
        let hour = Self.edited(PipelineHarness.defaultPolicy, [(Self.publicTier, #""maxTTL": 3600, "maxObjectBytes": 10485760"#)])
        let harness = try PipelineHarness(policyJSON: hour)
        defer { Task { await harness.close() } }
        let jpeg = try Fixtures.bytes("catalog/coins-1fea11f1.jpg")
        let now = Int64(harness.clock.now)
        harness.origin.setReply(.init(fields: ["Date": HTTPDate.format(now), "Last-Modified": HTTPDate.format(now - 480)],
                                      body: jpeg), for: "http://origin.test/catalog/heuristic.jpg")
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=3600"], body: jpeg), for: "http://origin.test/catalog/hour.jpg")
        #expect(await cacheStatus(harness, "/catalog/heuristic.jpg") == "mediactl; fwd=uri-miss; fwd-status=200; ttl=48; stored; detail=disk")
        #expect(await cacheStatus(harness, "/catalog/hour.jpg") == "mediactl; fwd=uri-miss; fwd-status=200; ttl=3600; stored; detail=disk")
        let half = Self.edited(hour, [(#""maxTTL": 3600, "maxObjectBytes": 10485760"#, #""maxTTL": 1800, "maxObjectBytes": 10485760"#)])
        let report = try harness.service.reload(policies: try Self.policies(half), digest: String(repeating: "cd", count: 32))
        #expect(report.updatedTiers == ["public"])
        #expect(report.removedObjects == 1)
        #expect(try purges(harness) == ["public:policy-max-ttl-shortened:-", "public:policy-max-ttl-shortened:1"])
        #expect(await cacheStatus(harness, "/catalog/heuristic.jpg") == "mediactl; hit; ttl=48")
        #expect(await cacheStatus(harness, "/catalog/hour.jpg") == "mediactl; fwd=uri-miss; fwd-status=200; ttl=1800; stored; detail=disk")
    }

    /// Lowering `unversionedMaxTTL` alone removes the unversioned avatar stored for longer and keeps the versioned one.
    @Test func aLowerUnversionedCapRemovesOnlyUnversionedLongerEntries() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let jpeg = try Fixtures.bytes("catalog/coins-1fea11f1.jpg")
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=3600"], body: jpeg), for: "http://origin.test/avatars/u.jpg")
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=3600"], body: jpeg), for: "http://origin.test/avatars/u.jpg?v=2")
        #expect(await cacheStatus(harness, "/avatars/u.jpg") == "mediactl; fwd=uri-miss; fwd-status=200; ttl=300; stored; detail=disk")
        #expect(await cacheStatus(harness, "/avatars/u.jpg?v=2") == "mediactl; fwd=uri-miss; fwd-status=200; ttl=3600; stored; detail=disk")
        let lower = Self.edited(PipelineHarness.defaultPolicy, [
            (Self.avatarTier, #""versionParameter": "v", "unversionedMaxTTL": 60, "maxTTL": 31536000"#)])
        let report = try harness.service.reload(policies: try Self.policies(lower), digest: String(repeating: "ef", count: 32))
        #expect(report.removedObjects == 1)
        #expect(await cacheStatus(harness, "/avatars/u.jpg?v=2") == "mediactl; hit; ttl=3600")
        #expect(await cacheStatus(harness, "/avatars/u.jpg") == "mediactl; fwd=uri-miss; fwd-status=200; ttl=60; stored; detail=disk")
    }

    /// An entry of a file written before lifetimes were recorded (no `lifetime` in its index metadata): its lifetime is
    /// its retention less what the old tier kept it for to revalidate, so a slightly lower cap keeps it too, and a cap
    /// below its lifetime removes it.
    @Test func anEntryWithoutARecordedLifetimeIsJudgedByItsRetention() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let jpeg = try Fixtures.bytes("catalog/coins-1fea11f1.jpg")
        let url = "http://origin.test/avatars/u.jpg?v=2"
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=3600"], body: jpeg), for: url)
        #expect(await cacheStatus(harness, "/avatars/u.jpg?v=2") == "mediactl; fwd=uri-miss; fwd-status=200; ttl=3600; stored; detail=disk")
        harness.service.flushWrites()
        let disk = try #require(harness.service.runtimes["avatar"]?.disk)
        let key = CacheKey.store(group: CacheKey.group(primary: CacheKey.primary(tier: "avatar", url: url), partition: nil),
                                 secondary: .empty)
        var entry = try #require(disk.entry(for: key))
        #expect(entry.metadata.lifetime == 3600)
        entry.metadata.lifetime = nil
        try disk.store(entry, for: key)
        disk.flush()
        let slightly = Self.edited(PipelineHarness.defaultPolicy, [
            (Self.avatarTier, #""versionParameter": "v", "unversionedMaxTTL": 300, "maxTTL": 31000000"#)])
        #expect(try harness.service.reload(policies: try Self.policies(slightly), digest: String(repeating: "ab", count: 32))
            .removedObjects == 0)
        let below = Self.edited(PipelineHarness.defaultPolicy, [
            (Self.avatarTier, #""versionParameter": "v", "unversionedMaxTTL": 300, "maxTTL": 1800"#)])
        #expect(try harness.service.reload(policies: try Self.policies(below), digest: String(repeating: "cd", count: 32))
            .removedObjects == 1)
    }

    /// A 304 that arrives older than the cap (its `Age` past the avatar tier's 300 s for an unversioned URL) leaves the
    /// entry stale with a lifetime of the cap, not its age: a later reload with unchanged caps keeps it.
    @Test func aRevalidationOlderThanTheCapRecordsTheCap() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let jpeg = try Fixtures.bytes("catalog/coins-1fea11f1.jpg")
        let url = "http://origin.test/avatars/u.jpg"
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=3600", "ETag": "\"a1\""], body: jpeg), for: url)
        #expect(await cacheStatus(harness, "/avatars/u.jpg") == "mediactl; fwd=uri-miss; fwd-status=200; ttl=300; stored; detail=disk")
        harness.clock.advance(301)
        harness.origin.setReply(.init(status: 304, fields: ["ETag": "\"a1\"", "Age": "400"]), for: url)
        _ = await harness.get("/avatars/u.jpg")
        harness.service.flushWrites()
        let disk = try #require(harness.service.runtimes["avatar"]?.disk)
        let key = CacheKey.store(group: CacheKey.group(primary: CacheKey.primary(tier: "avatar", url: url), partition: nil),
                                 secondary: .empty)
        #expect(disk.entry(for: key)?.metadata.lifetime == 300)
        let same = Self.edited(PipelineHarness.defaultPolicy, [(Self.avatarTier, #""versionParameter": "v", "unversionedMaxTTL": 300, "maxTTL": 31000000"#)])
        #expect(try harness.service.reload(policies: try Self.policies(same), digest: String(repeating: "ab", count: 32))
            .removedObjects == 0)
    }
}
