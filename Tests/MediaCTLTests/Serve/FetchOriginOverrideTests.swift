import MediaTestSupport
import Foundation
import Testing

@testable import MediaCTL

/// `mediactl fetch --origin ROUTE=URL`: the same per-environment override as `serve` and `inspect`,
/// so an unedited policy directory can be fetched against this environment's origin.
@Suite struct FetchOriginOverrideTests {
    @Test func originOverridePointsARouteAtAnotherOrigin() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let origin = try TestOrigin(addsDateField: false)
        let policies = directory.path + "/Policies"
        try FileManager.default.createDirectory(atPath: policies, withIntermediateDirectories: false)
        try Data(DemoPolicy.text.utf8).write(to: URL(fileURLWithPath: policies + "/default.json"))   // origin 127.0.0.1:8081
        let run = await CLIRun.run(
            ["fetch", "/catalog/coffee-237a7131.jpg", "--origin", "catalog=\(origin.base)/catalog/",
             "--policies", policies, "--state-dir", directory.path + "/state"],
            using: FetchCommandTests.Setup.environment)
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("200 OK\n"))
        #expect(run.stdout.hasSuffix("storage: disk (reason: tier-storage)\nbody: 15996 bytes\n"))
        await origin.stop()
    }

    @Test func unknownRouteIsAUsageErrorOfTheCommand() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let policies = directory.path + "/Policies"
        try FileManager.default.createDirectory(atPath: policies, withIntermediateDirectories: false)
        try Data(DemoPolicy.text.utf8).write(to: URL(fileURLWithPath: policies + "/default.json"))
        let run = await CLIRun.run(
            ["fetch", "/catalog/a.jpg", "--origin", "nosuch=http://127.0.0.1:1/", "--policies", policies,
             "--state-dir", directory.path + "/state"],
            using: FetchCommandTests.Setup.environment)
        #expect(run.status == 2)
        #expect(run.stderr == "mediactl: --origin: nosuch: unknown route; allowed: avatars, catalog, large, one-time, receipts, uploads\n")
        let malformed = await CLIRun.run(["fetch", "/catalog/a.jpg", "--origin", "bad"], using: FetchCommandTests.Setup.environment)
        #expect(malformed.status == 64)
        #expect(malformed.stderr == CLIRun.usageError("invalid --origin 'bad': expected ROUTE=URL", command: ["fetch"]))
    }
}
