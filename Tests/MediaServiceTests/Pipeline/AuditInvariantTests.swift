import Foundation
import HTTPCaching
import MediaAudit
@testable import MediaService
import MediaTestSupport
import Testing

/// Invariants between the state directory and the audit log after a mixed scenario: every
/// persisted file has its `store` record and no later removal; no secret ever reaches the log;
/// URLs only on shared tiers.
@Suite struct AuditInvariantTests {
    static let secrets = ["tok-AUD-u1-77aa", "tok-AUD-u2-88bb", "sid=AUD-cookie-99cc", "AUD-cookie-99cc"]
    static let privatePaths = ["statement-5521", "invoice-6632", "secret-query-4411"]

    /// Public and avatar stores, private stores for two users, a refusal, a skip, a purge of U2,
    /// a no-store answer and a revalidation.
    func runMixedScenario(_ harness: PipelineHarness) async throws {
        let origin = harness.origin
        let jpeg = try Fixtures.bytes("catalog/coffee-237a7131.jpg")
        let webp = try Fixtures.bytes("catalog/coffee.webp")
        let avatar = try Fixtures.bytes("avatars/u1001.jpg")
        let receipt = try Fixtures.bytes("receipts/r-7732.jpg")
        let cookie = ("Cookie", Self.secrets[2])
        let u1 = ("Authorization", "Bearer " + Self.secrets[0]), u2 = ("Authorization", "Bearer " + Self.secrets[1])
        origin.setReply(.init(fields: ["Cache-Control": "max-age=600"], body: jpeg), for: "http://origin.test/catalog/coffee.jpg?w=200")
        origin.setReply(.init(fields: ["Cache-Control": "max-age=600"], body: webp), for: "http://origin.test/catalog/coffee.webp")
        origin.setReply(.init(fields: ["Cache-Control": "max-age=60", "ETag": "\"e1\""], body: avatar),
                        for: "http://origin.test/avatars/u1001.jpg")
        origin.setReply(.init(fields: ["Cache-Control": "max-age=300"], body: receipt),
                        for: "http://origin.test/receipts/statement-5521.jpg?secret-query-4411=1")
        origin.setReply(.init(fields: ["Cache-Control": "max-age=300"], body: receipt), for: "http://origin.test/receipts/invoice-6632.jpg")
        origin.setReply(.init(fields: ["Cache-Control": "no-store"], body: jpeg), for: "http://origin.test/catalog/nostore.jpg")
        origin.setReply(.init(fields: ["Cache-Control": "max-age=600"], body: try Fixtures.bytes("hostile/script.svg")),
                        for: "http://origin.test/catalog/evil.jpg")
        origin.setReply(.init(fields: ["Cache-Control": "max-age=600"], body: jpeg), for: "http://origin.test/one-time/t.jpg")

        _ = await harness.get("/catalog/coffee.jpg?w=200", [cookie, u1])
        _ = await harness.get("/catalog/coffee.webp", [cookie])
        _ = await harness.get("/avatars/u1001.jpg", [u2])
        _ = await harness.get("/receipts/statement-5521.jpg?secret-query-4411=1", [u1, cookie])
        _ = await harness.get("/receipts/invoice-6632.jpg", [u1])
        _ = await harness.get("/receipts/invoice-6632.jpg", [u2])
        _ = await harness.get("/catalog/nostore.jpg", [cookie])
        _ = await harness.get("/catalog/evil.jpg")
        _ = await harness.get("/one-time/t.jpg", [u1])
        #expect(try harness.service.purge(.credential(try BearerToken(token: Self.secrets[1]))) == 1)
        harness.clock.advance(61)
        origin.setReply(.init(status: 304, fields: ["ETag": "\"e1\""]), for: "http://origin.test/avatars/u1001.jpg")
        let revalidated = await harness.get("/avatars/u1001.jpg")
        #expect(revalidated.fields["Cache-Status"] == "mediactl; fwd=stale; fwd-status=304; ttl=60")
    }

    @Test func everyPersistedFileHasAStoreRecordAndNoLaterRemoval() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        try await runMixedScenario(harness)
        let records = try harness.auditRecords()
        #expect(PipelineSupport.events(records) == [
            "store:tier-storage", "store:tier-storage", "store:tier-storage", "store:tier-storage", "store:tier-storage",
            "store:tier-storage", "skip:response-no-store", "skip:not-an-image", "skip:tier-storage",
            // The partition's data key is recorded destroyed before its files are removed (crypto-shredding).
            "shred:partition-key-destroyed", "purge:purge-credential", "purge:purge-credential", "update:not-modified",
        ])
        let persisted = harness.filesUnderState().map(\.path).filter { $0.hasPrefix("disk/") || $0.hasPrefix("sealed/") }
        #expect(persisted.filter { $0.hasPrefix("disk/public/") }.count == 2)
        #expect(persisted.filter { $0.hasPrefix("disk/avatar/") }.count == 1)
        #expect(persisted.filter { $0.hasPrefix("sealed/private/") }.count == 2)
        #expect(persisted.count == 5)
        for path in persisted {
            let name = String(path.split(separator: "/").last ?? "")
            let mentions = records.filter { $0.entry.key?.hex == name }
            #expect(mentions.contains { $0.entry.event.rawValue == "store" }, "no store record for \(path)")
            let last = try #require(mentions.last, "no record for \(path)")
            #expect(!last.entry.event.removesObject, "\(path) persists after \(last.entry.event.rawValue)")
            let tier = String(path.split(separator: "/")[1])
            #expect(mentions.allSatisfy { $0.entry.tier?.rawValue == tier })
            #expect(mentions.allSatisfy { $0.entry.storage?.rawValue == (path.hasPrefix("disk/") ? "disk" : "encrypted-disk") })
        }
        // Every key stored and never removed is on disk.
        var live: Set<String> = []
        for record in records {
            guard let key = record.entry.key?.hex, ["disk", "encrypted-disk"].contains(record.entry.storage?.rawValue) else { continue }
            if record.entry.event.rawValue == "store" { live.insert(key) }
            if record.entry.event.removesObject { live.remove(key) }
        }
        #expect(live == Set(persisted.map { String($0.split(separator: "/").last ?? "") }))
        #expect(try AuditVerifier.verify(stateDirectory: harness.stateDirectory).isIntact)
    }

    @Test func theLogNeverHoldsCredentialsCookiesOrPrivatePaths() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        try await runMixedScenario(harness)
        await harness.service.stop()
        let log = harness.filesUnderState().filter { $0.path.hasPrefix("audit/") }
        #expect(!log.isEmpty)
        for file in log {
            let text = String(decoding: file.bytes, as: UTF8.self)
            for secret in Self.secrets + Self.privatePaths {
                #expect(!text.contains(secret), "\(secret) in \(file.path)")
            }
            #expect(!text.contains("?w=200"), "query string in \(file.path)")
        }
    }

    @Test func urlsAppearOnlyOnSharedTiersWithoutQueries() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        try await runMixedScenario(harness)
        let records = try harness.auditRecords()
        for record in records where record.entry.tier?.rawValue == "private" && record.entry.event != .policy {
            #expect(record.entry.url == nil)
            #expect(record.entry.partition != nil)
        }
        // The no-store tier's one-time content: audited `skip`, without its URL.
        let oneTime = records.filter { $0.entry.route?.rawValue == "one-time" }
        #expect(oneTime.map(\.entry.event.rawValue) == ["skip"])
        #expect(oneTime.allSatisfy { $0.entry.url == nil && $0.entry.partition == nil })
        let urls = records.filter { $0.entry.event.rawValue == "store" }.map { $0.entry.url?.rawValue }
        #expect(urls == [
            "http://origin.test/catalog/coffee.jpg", "http://origin.test/catalog/coffee.webp",
            "http://origin.test/avatars/u1001.jpg", nil, nil, nil,
        ])
        for record in records where ["public", "avatar"].contains(record.entry.tier?.rawValue) {
            #expect(record.entry.partition == nil)
        }
    }

    /// Small budgets: a memory tier and a disk tier that must evict.
    static let tightPolicy = """
    { "tiers": {
        "public": { "storage": "disk", "cache": "shared", "credentials": "strip", "maxTTL": 3600,
                    "diskBytes": 30000, "memoryBytes": 40000 },
        "mem":    { "storage": "memory", "cache": "shared", "credentials": "strip", "maxTTL": 3600, "memoryBytes": 100000 } },
      "routes": [
        { "name": "catalog", "mount": "/catalog/", "origin": "http://origin.test/catalog/", "tier": "public" },
        { "name": "mem",     "mount": "/mem/",     "origin": "http://origin.test/mem/",     "tier": "mem" } ] }
    """

    @Test func evictionsUnderBudgetsAreAuditedAndTheLiveSetMatchesTheStores() async throws {
        let harness = try PipelineHarness(policyJSON: Self.tightPolicy)
        defer { Task { await harness.close() } }
        for mount in ["catalog", "mem"] {
            for index in 0..<14 {
                let body = PipelineSupport.markedPNG(String(repeating: "\(mount)-\(index)-", count: (mount == "mem" ? 9000 : 2400) / (mount.count + 4)))
                harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=600"], body: body),
                                        for: "http://origin.test/\(mount)/\(index).png")
                let response = await harness.get("/\(mount)/\(index).png")
                #expect(response.outcome.storage == (mount == "catalog" ? .stored(.disk) : .stored(.memory)))
            }
        }
        let records = try harness.auditRecords()
        let evictions = records.filter { $0.entry.event.rawValue == "evict" }
        #expect(!evictions.isEmpty)
        // Disk files of about 2.5 KB: the count limit (diskBytes / 4096 = 7 entries, for the index's memory) binds
        // before the 30,000 bytes do; the memory tier evicts by bytes.
        #expect(evictions.allSatisfy {
            $0.entry.reason?.rawValue == ($0.entry.storage?.rawValue == "disk" ? "count-limit" : "byte-limit")
        })
        var live: [String: Set<String>] = [:]
        for record in records {
            guard let key = record.entry.key?.hex, let storage = record.entry.storage?.rawValue else { continue }
            if record.entry.event.rawValue == "store" { live[storage, default: []].insert(key) }
            if record.entry.event.removesObject { live[storage]?.remove(key) }
        }
        let diskNames = Set(harness.filesUnderState().map(\.path).filter { $0.hasPrefix("disk/") }
                                .map { String($0.split(separator: "/").last ?? "") })
        #expect(live["disk"] == diskNames)
        #expect(diskNames.count == 7)
        #expect((live["memory"]?.count ?? 0) < 14)
        let memory = try #require(harness.service.runtimes["mem"]?.memory)
        #expect(live["memory"] == Set(memory.inventory().map { CacheKey.digest($0.key) }))
        // An evicted entry is fetched again; a live one is a hit.
        let evictedFirst = await harness.get("/mem/0.png")
        #expect(evictedFirst.fields["Cache-Status"]?.hasPrefix("mediactl; fwd=uri-miss") == true)
        let newest = await harness.get("/mem/13.png")
        #expect(newest.fields["Cache-Status"] == "mediactl; hit; ttl=600")
        let newestDisk = await harness.get("/catalog/13.png")
        #expect(newestDisk.fields["Cache-Status"] == "mediactl; hit; ttl=600")
    }
}
