import Foundation
import MediaAudit
import MediaAuditReports
import MediaStorage
import Synchronization
import Testing

@testable import MediaCTL

/// `mediactl audit --state-dir A --state-dir B …`: a report per replica headed by its state directory, then
/// the fleet's totals; exit 1 when any replica has a violation, 2 when one cannot be audited.
@Suite struct AuditFleetCommandTests {
    static let header = "  storage              stored     updated     skipped     evicted     expired      purged invalidated    shredded     objects       bytes\n"

    /// One row of the tier tables: the storage class, then stored and objects and bytes (every other count 0).
    static func row(_ storage: String, stored: Int, objects: Int, bytes: Int) -> String {
        func pad(_ value: Int) -> String { String(repeating: " ", count: 12 - String(value).count) + String(value) }
        return "  " + storage + String(repeating: " ", count: 15 - storage.count)
            + ([stored] + Array(repeating: 0, count: 7) + [objects, bytes]).map(pad).joined() + "\n"
    }

    /// Two harnesses, each populated (one catalog image on disk, one sealed receipt), both still running.
    static func twoReplicas() async throws -> (ServiceStateHarness, ServiceStateHarness) {
        let a = try ServiceStateHarness()
        let b = try ServiceStateHarness()
        try await a.populate()
        try await b.populate()
        return (a, b)
    }

    static func fleetAudit(_ a: ServiceStateHarness, _ b: ServiceStateHarness, _ extra: [String] = []) async -> CLIRun {
        await a.run(["audit", "--state-dir", a.stateDirectory, "--state-dir", b.stateDirectory,
                     "--policies", a.policiesDirectory] + extra)
    }

    @Test func parsesTheRepeatedFlagAndRefusesADirectoryGivenTwice() async throws {
        #expect(try MediaCTLMain.parse(["audit", "--state-dir", "a", "--state-dir=b", "--state-dir", "c"], environment: [:])
            == .command(AuditCommand(stateDirectories: ["a", "b", "c"])))
        let single = try MediaCTLMain.parse(["audit", "--state-dir", "a"], environment: ["MEDIACTL_STATE_DIR": "env"])
        #expect(single == .command(AuditCommand(stateDirectories: ["a"])))
        #expect(try MediaCTLMain.parse(["audit"], environment: ["MEDIACTL_STATE_DIR": "env"])
            == .command(AuditCommand(stateDirectories: ["env"])))
        #expect(AuditCommand(stateDirectories: ["a"]).isFleet == false)
        #expect(AuditCommand(stateDirectories: ["a", "b"]).stateDirectories == ["a", "b"])
        let twice = await CLIRun.run(["audit", "--state-dir", "a", "--state-dir", "b", "--state-dir", "a"])
        #expect(twice.status == 64)
        #expect(twice.stderr == CLIRun.usageError(
            "state directory 'a' is given twice: each replica has its own", command: ["audit"]))
        // audit verify keeps one state directory.
        #expect(await CLIRun.run(["audit", "verify", "--state-dir", "a", "--state-dir", "b"]).status == 64)
    }

    @Test func helpDescribesTheFleet() async {
        let help = await CLIRun.run(["audit", "--help"])
        #expect(help.stdout.contains(
            "  --state-dir DIR   State directory. Repeatable: one per replica, each audited, then the fleet's totals. "
                + "Default: $MEDIACTL_STATE_DIR when set and non-empty, else ./.mediactl.\n"))
        #expect(help.stdout.contains(
            "\nWith several --state-dir (a fleet, docs/scale-out.md): a report per replica headed by its state directory, "
                + "then the fleet's totals; --json, --junit and --html cover every replica. One unusable replica exits 2.\n"))
    }

    @Test func theTextIsEachReplicasReportThenTheTotals() async throws {
        let (a, b) = try await Self.twoReplicas()
        defer { Task { await a.close(); await b.close() } }
        let singleA = await a.audit()
        let singleB = await b.audit()
        let disk = try a.objects(in: .disk)[0].bytes + b.objects(in: .disk)[0].bytes
        let sealed = try a.objects(in: .sealed)[0].bytes + b.objects(in: .sealed)[0].bytes
        let records = try a.records().count + b.records().count
        let result = await Self.fleetAudit(a, b)
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(result.stdout == "replica 1 of 2: \(a.stateDirectory)\n" + singleA.stdout
            + "\nreplica 2 of 2: \(b.stateDirectory)\n" + singleB.stdout
            + "\nfleet: 2 replicas, \(records) records, chains intact 2 of 2\n"
            + "\ntier avatar (allows disk)\n" + Self.header
            + "\ntier no-store (allows none)\n" + Self.header
            + "\ntier private (allows encrypted-disk)\n" + Self.header + Self.row("encrypted-disk", stored: 2, objects: 2, bytes: sealed)
            + "\ntier public (allows disk)\n" + Self.header + Self.row("disk", stored: 2, objects: 2, bytes: disk)
            + "\nfleet clean: no violations in 2 replicas\n")
    }

    @Test func oneStateDirectoryKeepsTheSingleReport() async throws {
        let harness = try ServiceStateHarness()
        defer { Task { await harness.close() } }
        try await harness.populate()
        let text = await harness.audit()
        #expect(text.stdout.hasPrefix("audit: "))
        #expect(!text.stdout.contains("replica"))
        let json = await harness.audit(["--json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(document["replicas"] == nil)
        #expect(document["totals"] == nil)
        #expect(document["tiers"] != nil)
    }

    @Test func aViolationInOneReplicaExitsOneAndNamesIt() async throws {
        let (a, b) = try await Self.twoReplicas()
        defer { Task { await a.close(); await b.close() } }
        let hex = KeyDigest.hex(of: "planted-plaintext")
        let folder = "\(b.stateDirectory)/sealed/private/\(hex.prefix(2))/\(hex.dropFirst(2).prefix(2))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data("plain bytes".utf8).write(to: URL(fileURLWithPath: folder + "/" + hex))
        let singleA = await a.audit()
        let singleB = await b.audit()
        #expect(singleB.status == 1)
        let result = await Self.fleetAudit(a, b)
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix("replica 1 of 2: \(a.stateDirectory)\n" + singleA.stdout
            + "\nreplica 2 of 2: \(b.stateDirectory)\n" + singleB.stdout + "\nfleet: 2 replicas, "))
        #expect(result.stdout.hasSuffix("\nfleet violations: 2 in 1 of 2 replicas: \(b.stateDirectory)\n"))

        let json = await Self.fleetAudit(a, b, ["--json"])
        #expect(json.status == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(Set(document.keys) == ["clean", "replicas", "totals"])
        #expect(document["clean"] as? Bool == false)
        let replicas = try #require(document["replicas"] as? [[String: Any]])
        #expect(replicas.map { $0["stateDirectory"] as? String } == [a.stateDirectory, b.stateDirectory])
        #expect(replicas.map { $0["clean"] as? Bool } == [true, false])
        // Each replica is its single document plus stateDirectory.
        let singleJSON = try #require(try JSONSerialization.jsonObject(
            with: Data(await b.audit(["--json"]).stdout.utf8)) as? [String: Any])
        #expect(Set(replicas[1].keys) == Set(singleJSON.keys).union(["stateDirectory"]))
        #expect((replicas[1]["violations"] as? [[String: Any]])?.compactMap { $0["kind"] as? String }
            == ["not-sealed", "unrecorded-object"])
        let totals = try #require(document["totals"] as? [String: Any])
        #expect(totals["clean"] as? Bool == false)
        #expect(totals["replicas"] as? Int == 2)
        #expect(totals["replicasWithViolations"] as? [String] == [b.stateDirectory])
        #expect(totals["brokenChains"] as? [String] == [])
        #expect(totals["violations"] as? Int == 2)
        #expect(totals["objects"] as? Int == 5)
        #expect(totals["recordCount"] as? Int == (try a.records().count + b.records().count))
    }

    @Test func anUnusableReplicaExitsTwoAndPrintsNoReport() async throws {
        let harness = try ServiceStateHarness()
        defer { Task { await harness.close() } }
        try await harness.populate()
        let missing = harness.folder.path + "/no-such-state"
        let result = await harness.run(["audit", "--state-dir", harness.stateDirectory, "--state-dir", missing,
                                        "--policies", harness.policiesDirectory])
        #expect(result.status == 2)
        #expect(result.stdout == "")
        #expect(result.stderr == "mediactl: state directory '\(missing)' does not exist\n")
    }

    /// With the clocks injected, the files are exactly the fleet renderings of the replicas' reports.
    @Test func theFilesAreTheFleetRenderings() async throws {
        let (a, b) = try await Self.twoReplicas()
        defer { Task { await a.close(); await b.close() } }
        let junit = a.folder.path + "/fleet.xml"
        let html = a.folder.path + "/fleet.html"
        let clock = AuditReportClock.fixed(ticks: [5_000, 5_300])
        let options = AuditCommand(
            stateDirectories: [a.stateDirectory, b.stateDirectory], policiesDirectory: a.policiesDirectory, junitFile: junit,
            htmlFile: html)
        let out = CapturedOutput()
        let err = CapturedOutput()
        let status = options.run(context: CommandContext(stdout: out, stderr: err, environment: [:]), clock: clock)
        #expect(status == .success)
        #expect(err.text == "")
        let generatedAt = AuditTime(millisecondsSinceEpoch: 1_795_950_435_123)
        let quiet = CommandContext(stdout: CapturedOutput(), stderr: CapturedOutput(), environment: [:])
        var replicas: [AuditFleet.Replica] = []
        for harness in [a, b] {
            let records = try harness.records()
            let document = try AuditCommand(stateDirectories: [harness.stateDirectory], policiesDirectory: harness.policiesDirectory).audit(context: quiet)
            replicas.append(AuditFleet.Replica(
                name: harness.stateDirectory, report: document.report,
                context: AuditReportContext(generatedAt: generatedAt, records: .init(first: records.first!.time, last: records.last!.time))))
        }
        let fleet = AuditFleet(replicas: replicas)
        let context = AuditReportContext(generatedAt: generatedAt, durationMilliseconds: 300)
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml == AuditFleetJUnitReport(fleet: fleet, context: context).xml)
        #expect(xml.contains(#"<testsuites name="mediactl audit" tests="106" failures="0" errors="0" time="0.300">"#))
        #expect(xml.contains("<testsuite name=\"\(b.stateDirectory): tier public\" tests=\"13\" failures=\"0\" "))
        #expect(xml.contains("classname=\"mediactl.replica-2.tier.public\""))
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page == AuditFleetHTMLReport(fleet: fleet, context: context).html)
        #expect(page.contains("<title>mediactl audit: 2 replicas, clean</title>\n"))
        for path in [junit, html] {
            #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
        }
    }
}
