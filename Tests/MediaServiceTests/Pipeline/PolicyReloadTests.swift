import Foundation
import HTTPCaching
import MediaAudit
import MediaPolicy
import MediaTestSupport
import Testing

@testable import MediaService

/// ``MediaService/reload(policies:digest:)``: the snapshot swap, which runtimes are kept, what a narrower set
/// removes (audited), and requests in flight across a reload.
@Suite struct PolicyReloadTests {
    static let jpegURL = "http://origin.test/catalog/a.jpg"

    static func policies(_ json: String) throws -> PolicySet {
        try PolicyLoader().load(sources: [.init(name: "Policies/test.json", bytes: Array(json.utf8))])
    }

    /// The default policy with `replace` applied to its text.
    static func edited(_ pairs: [(String, String)]) -> String {
        pairs.reduce(PipelineHarness.defaultPolicy) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
    }

    static let addedRoute = edited([(
        #"{ "name": "one-time","#,
        #"{ "name": "extra", "mount": "/extra/", "origin": "http://origin.test/catalog/", "tier": "public" },"# + "\n    "
            + #"{ "name": "one-time","#)])

    @Test func anAddedRouteAnswersAndUnchangedTiersKeepTheirRuntimes() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let jpeg = try Fixtures.bytes("catalog/coins-1fea11f1.jpg")
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=600"], body: jpeg), for: Self.jpegURL)
        #expect(await harness.get("/catalog/a.jpg").status == 200)
        #expect(await harness.get("/extra/a.jpg").status == 404)
        let before = harness.service.runtimes
        let firstDigest = harness.service.policyDigest
        let report = try harness.service.reload(policies: try Self.policies(Self.addedRoute), digest: String(repeating: "ab", count: 32))
        #expect(report == PolicyReloadReport(
            digest: String(repeating: "ab", count: 32), previousDigest: firstDigest,
            keptTiers: ["avatar", "no-store", "private", "public"], updatedTiers: [], replacedTiers: [], addedTiers: [],
            removedTiers: [], removedObjects: 0))
        for (name, runtime) in harness.service.runtimes { #expect(runtime === before[name], "\(name)") }
        // The route added shares the public tier's stores: its first answer is a hit of the same URL.
        let added = await harness.get("/extra/a.jpg")
        #expect(added.status == 200)
        #expect(added.fields["Cache-Status"] == "mediactl; hit; ttl=600")
        #expect(harness.origin.callCount(for: Self.jpegURL) == 1)
        let policyRecords = try harness.auditRecords(includingPolicy: true).filter { $0.event == .policy }
        #expect(policyRecords.map { "\($0.tier?.rawValue ?? "-"):\($0.reason?.rawValue ?? "-"):\($0.storage?.rawValue ?? "-"):\($0.ttl.map(String.init) ?? "-")" } == [
            "-:policy-loaded:-:-", "avatar:policy-tier:disk:31536000", "no-store:policy-tier:none:86400",
            "private:policy-tier:encrypted-disk:600", "public:policy-tier:disk:31536000",
            "-:policy-reloaded:-:-", "avatar:policy-tier:disk:31536000", "no-store:policy-tier:none:86400",
            "private:policy-tier:encrypted-disk:600", "public:policy-tier:disk:31536000",
        ])
        #expect(policyRecords.map { $0.key?.hex } == Array(repeating: firstDigest, count: 5) + Array(repeating: report.digest, count: 5))
        let metrics = await harness.get("/_mediactl/metrics").text
        #expect(metrics.contains("\nmediactl_policy_reloads_total{result=\"ok\"} 1\nmediactl_policy_reloads_total{result=\"failed\"} 0\n"))
        #expect(metrics.contains("\nmediactl_policy_info{sha256=\"\(report.digest)\"} 1\n"))
    }

    /// public disk → memory (new stores: its disk object and file go), avatar's maxTTL shortened (same stores: the
    /// entry stored for longer goes), private removed (its sealed object is shredded): each audited `purge`.
    @Test func aNarrowerSetRemovesWhatItForbidsAudited() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let jpeg = try Fixtures.bytes("catalog/coins-1fea11f1.jpg")
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=600"], body: jpeg), for: Self.jpegURL)
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=600"], body: jpeg), for: "http://origin.test/avatars/u.jpg")
        harness.origin.setReply(.init(fields: ["Cache-Control": "max-age=60"], body: jpeg), for: "http://origin.test/receipts/r.jpg")
        #expect(await harness.get("/catalog/a.jpg").fields["Cache-Status"]?.hasSuffix("stored; detail=disk") == true)
        #expect(await harness.get("/avatars/u.jpg").fields["Cache-Status"]?.hasSuffix("ttl=300; stored; detail=disk") == true)
        #expect(await harness.get("/receipts/r.jpg", [("Authorization", "Bearer t1")]).fields["Cache-Status"]?
            .hasSuffix("stored; detail=encrypted-disk") == true)
        harness.service.flushWrites()
        #expect(harness.filesUnderState().filter { $0.path.hasPrefix("disk/") || $0.path.hasPrefix("sealed/") }.count == 3)
        let narrower = Self.edited([
            (#""public":  { "storage": "disk","#, #""public":  { "storage": "memory","#),
            (#""unversionedMaxTTL": 300, "maxTTL": 31536000"#, #""unversionedMaxTTL": 60, "maxTTL": 100"#),
            (#""private": { "storage": "encrypted-disk", "cache": "private", "credentials": "bearer-required","# + "\n"
                + #"                 "partition": "credential", "maxTTL": 600, "downstreamCacheControl": "private, no-store" },"#, ""),
            (#"{ "name": "receipts", "mount": "/receipts/", "origin": "http://origin.test/receipts/", "tier": "private" },"#, ""),
        ])
        let report = try harness.service.reload(policies: try Self.policies(narrower), digest: String(repeating: "cd", count: 32))
        #expect(report.keptTiers == ["no-store"])
        #expect(report.updatedTiers == ["avatar"])
        #expect(report.replacedTiers == ["public"])
        #expect(report.removedTiers == ["private"])
        #expect(report.removedObjects == 3)
        #expect(harness.filesUnderState().filter { $0.path.hasPrefix("disk/") || $0.path.hasPrefix("sealed/") }.isEmpty)
        let records = try harness.auditRecords(includingPolicy: true)
        let reload = try #require(records.lastIndex { $0.event == .policy && $0.tier == nil })
        let after = records[reload...].filter { $0.event != .policy }
        #expect(after.map { "\($0.event.rawValue):\($0.tier?.rawValue ?? "-"):\($0.storage?.rawValue ?? "-"):\($0.reason?.rawValue ?? "-"):\($0.count.map(String.init) ?? "-")" } == [
            "purge:private:encrypted-disk:policy-tier-removed:-", "purge:private:-:policy-tier-removed:1",
            "purge:public:disk:policy-tier-changed:-", "purge:public:-:policy-tier-changed:1",
            "purge:avatar:disk:policy-max-ttl-shortened:-", "purge:avatar:-:policy-max-ttl-shortened:1",
        ])
        // The new public tier keeps its next answer in memory; the removed route is gone.
        #expect(await harness.get("/catalog/a.jpg").fields["Cache-Status"]?.hasSuffix("stored; detail=memory") == true)
        #expect(await harness.get("/receipts/r.jpg", [("Authorization", "Bearer t1")]).status == 404)
        let verification = AuditVerifier.verify(records: records)
        #expect(verification.failure == nil)
    }

    /// A request admitted before a reload finishes under the old snapshot and is answered, but stores nothing
    /// (like an exchange during a purge); the next one is stored under the new set.
    @Test func aRequestInFlightFinishesButStoresNothing() async throws {
        let held = HeldOrigin()
        let harness = try PipelineHarness(fetcher: held)
        defer { Task { await harness.close() } }
        let jpeg = try Fixtures.bytes("catalog/coins-1fea11f1.jpg")
        held.inner.setReply(.init(fields: ["Cache-Control": "max-age=600"], body: jpeg), for: Self.jpegURL)
        let inFlight = Task { await harness.get("/catalog/a.jpg") }
        #expect(await eventually { held.inner.callCount(for: Self.jpegURL) == 1 })
        try harness.service.reload(policies: try Self.policies(Self.addedRoute), digest: String(repeating: "ef", count: 32))
        await held.release.open()
        let answer = await inFlight.value
        #expect(answer.status == 200)
        #expect(answer.body == jpeg)
        #expect(answer.fields["Cache-Status"]?.contains("stored") == false)
        #expect(try harness.auditRecords().last { $0.event == .skip }?.reason?.rawValue == "purged-during-fetch")
        #expect(await harness.get("/catalog/a.jpg").fields["Cache-Status"]?.hasSuffix("stored; detail=disk") == true)
    }

    @Test func aFailedSwapKeepsTheSetInForceAndIsCounted() async throws {
        let harness = try PipelineHarness()
        defer { Task { await harness.close() } }
        let digest = harness.service.policyDigest
        var broken = try Self.policies(PipelineHarness.defaultPolicy)
        broken.routes.append(broken.routes[0])  // the router refuses a name used twice
        #expect(throws: ServiceError.self) { try harness.service.reload(policies: broken, digest: String(repeating: "00", count: 32)) }
        harness.service.countFailedReload()
        #expect(harness.service.policyDigest == digest)
        let metrics = await harness.get("/_mediactl/metrics").text
        #expect(metrics.contains("\nmediactl_policy_reloads_total{result=\"ok\"} 0\nmediactl_policy_reloads_total{result=\"failed\"} 2\n"))
    }
}

/// An origin whose answers wait for ``release`` (no sleeping).
final class HeldOrigin: OriginFetching {
    let inner = CountingOriginFetcher()
    let release = Gate()

    func fetch(_ request: OriginRequest) async throws -> OriginResponse {
        let response = try await inner.fetch(request)
        await release.wait()
        return response
    }
}
