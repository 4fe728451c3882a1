import Foundation
import MediaAudit
import MediaTestSupport
import Testing

@testable import MediaCTL

/// A reload the service cannot carry out (a valid set whose new tier's stores cannot be opened) is reported once,
/// in the service's own words, by `mediactl reload` and on serve's stderr: not `reload failed: reload failed: …`.
@Suite(.serialized) struct ReloadFailureTests {
    @Test func aNewTierWhoseStoresCannotOpenLeavesTheSetInForceAndSaysSoOnce() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let origin = try TestOrigin()
        let policies = try origin.writePolicies(in: directory)
        let state = directory.path + "/state"
        let serving = try await ServeCommandTests.start(policies: policies, state: state)
        // The new tier's disk folder is taken by a file, so its store cannot be opened.
        try Data("x".utf8).write(to: URL(fileURLWithPath: state + "/disk/late"))
        try Data("""
            { "tiers": { "late": { "storage": "disk", "cache": "shared", "maxTTL": 60 } },
              "routes": [ { "name": "late", "mount": "/late/", "origin": "\(origin.base)/catalog/", "tier": "late" } ] }
            """.utf8).write(to: URL(fileURLWithPath: policies + "/z-late.json"))
        let inForce = try #require(AuditReader.records(directory: state + "/audit").last { $0.event == .policy && $0.tier == nil }?.key?.hex)
        let refused = await CLIRun.run(["reload", "--state-dir", state])
        let reason = "cannot open the stores of tier late: unsafe-path: \(state)/disk/late is a symlink or not a folder; the policies in force stay"
        #expect(refused == CLIRun(
            status: 1, stdout: "",
            stderr: "mediactl: the service at 127.0.0.1:\(serving.adminPort) failed the reload: \(reason)\n"))
        #expect(serving.stderr.text == "mediactl: admin request: reload failed: \(reason)\n")
        #expect(try await HTTPGet.fetch(serving.base + "/late/coffee-237a7131.jpg").status == 404)
        #expect(await serving.stop() == .success)
        let summaries = try AuditReader.records(directory: state + "/audit").filter { $0.event == .policy && $0.tier == nil }
        #expect(summaries.map { $0.reason?.rawValue } == ["policy-loaded"])
        #expect(summaries.last?.key?.hex == inForce)
        await origin.stop()
    }
}
