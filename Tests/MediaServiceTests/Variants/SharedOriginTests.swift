import Foundation
import HTTPCaching
import MediaAudit
import MediaCore
import MediaService
import MediaStorage
import MediaTestSupport
import Testing

/// Two routes of different tiers on one origin URL never share stored responses, origin exchanges or
/// variants: the primary key is scoped by tier (found by a fresh-user trial: the audit saw one key in two tiers).
@Suite struct SharedOriginTests {
    static let policy = """
    { "tiers": {
        "strip": { "storage": "disk", "metadata": "strip", "variants": \(VariantHarness.variants) },
        "keep":  { "storage": "disk", "variants": \(VariantHarness.variants) } },
      "routes": [
        { "name": "meta",       "mount": "/meta/",       "origin": "http://origin.test/meta/", "tier": "strip" },
        { "name": "meta-alias", "mount": "/meta-alias/", "origin": "http://origin.test/meta/", "tier": "keep" } ] }
    """

    @Test func aStripTierNeverGetsAKeepTiersBytes() async throws {
        let harness = try PipelineHarness(policyJSON: Self.policy)
        let upload = try Fixtures.bytes("uploads/gps-orient6.jpg")
        harness.origin.setReply(.init(fields: HTTPFields([("Cache-Control", "max-age=600")]), body: upload,
                                      delay: .milliseconds(50)),
                                for: "http://origin.test/meta/u.jpg")
        // Concurrent: the two would share one origin exchange if their keys were equal.
        async let kept = harness.get("/meta-alias/u.jpg")
        async let stripped = harness.get("/meta/u.jpg")
        let (keep, strip) = await (kept, stripped)
        #expect(keep.body == upload)
        #expect(strip.body != upload)
        #expect(!VariantHarness.contains(strip.body, Array("SN-4417-2208".utf8)))
        #expect(harness.origin.callCount(for: "http://origin.test/meta/u.jpg") == 2)
        let variants = [await harness.get("/meta-alias/u.jpg?w=144"), await harness.get("/meta/u.jpg?w=144")]
        #expect(variants.allSatisfy { $0.fields["Cache-Status"]?.contains("stored") == true })
        let stores = try harness.auditRecords().filter { $0.event == .store }
        #expect(stores.count == 4)
        #expect(Set(stores.compactMap(\.key)).count == 4)
        for variant in stores where variant.derivedFrom != nil {
            #expect(stores.first { $0.key == variant.derivedFrom }?.tier == variant.tier)
        }
        _ = try harness.service.purge(.route("meta-alias"))
        #expect(await harness.get("/meta/u.jpg").fields["Cache-Status"]?.hasPrefix("mediactl; hit") == true)
        await harness.close()
    }

    @Test func entriesStoredUnderUnscopedKeysGoAtStart() async throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("unscoped-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: state) }
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        // An earlier version's entry: key `<url>\u{1F}-\u{1F}` (no tier).
        let old = try DiskStore(directory: state + "/disk/keep", configuration: .init(synchronizesWrites: false),
                                integrityKey: try IntegrityKeyFile.open(stateDirectory: state))
        let key = "http://origin.test/meta/u.jpg\u{1F}-\u{1F}"
        try old.store(StoredEntry(metadata: EntryMetadata(key: key, tier: "keep", route: "meta-alias", partition: nil,
                                                          head: [], requestTime: 1, responseTime: 1, expiresAt: 4_000_000_000),
                                  body: [1, 2, 3]), for: key) {}
        old.flush()
        let harness = try PipelineHarness(policyJSON: Self.policy, stateDirectory: state)
        let evictions = try harness.auditRecords().filter { $0.event == .evict }
        #expect(evictions.map(\.reason?.rawValue) == ["cache-key-changed"])
        #expect(evictions.first?.key?.description == KeyDigest.hex(of: key))
        #expect(harness.filesUnderState().allSatisfy { !$0.path.hasPrefix("disk/keep/") })
        await harness.service.stop()
    }
}
