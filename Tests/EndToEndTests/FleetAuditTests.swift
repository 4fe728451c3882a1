import Foundation
import MediaTestSupport
import Testing

/// `mediactl audit --state-dir A --state-dir B` on two real replicas (issue 17 item 3, docs/scale-out.md):
/// two `mediactl serve` instances with their own state directories behind one nginx origin.
@Suite(.serialized) struct FleetAuditTests {
    @Test func twoReplicasAuditCleanAndAPlantedViolationNamesItsReplica() throws {
        let world = try ServeEnvironment()
        defer { world.tearDown() }
        try world.start()
        let stateA = world.stateDirectory
        let stateB = world.root.appendingPathComponent("state-b")
        let replicaB = try MediactlProcess(policiesDirectory: world.policiesDirectory, stateDirectory: stateB)
        defer { replicaB.cleanUp() }
        #expect(try world.get("/catalog/coffee-237a7131.jpg").cacheStatus.stored)
        #expect(try world.get("/receipts/r-7731.png", token: NginxOrigin.longTokenU1).cacheStatus.stored)
        #expect(try RawHTTP.get(port: replicaB.port, "/catalog/rocket-cfc075d1.jpg").cacheStatus.stored)
        #expect(try RawHTTP.get(port: replicaB.port, "/catalog/horse-d29d871c.jpg").cacheStatus.stored)
        #expect(world.stop() == 0)
        #expect(replicaB.terminate() == 0)

        let arguments = ["audit", "--state-dir", stateA.path, "--state-dir", stateB.path, "--policies", world.policiesDirectory.path]
        let single = [stateA, stateB].map { state in
            try? MediactlProcess.run(["audit", "--state-dir", state.path, "--policies", world.policiesDirectory.path])
        }
        #expect(single.map { $0?.exitCode } == [0, 0])
        let recordsA = AuditLine.read(directory: stateA.appendingPathComponent("audit")).count
        let recordsB = AuditLine.read(directory: stateB.appendingPathComponent("audit")).count
        let clean = try MediactlProcess.run(arguments)
        #expect(clean.exitCode == 0)
        #expect(clean.stderr == "")
        // Each replica's report is exactly its single audit, headed by its state directory.
        #expect(clean.stdout.hasPrefix(
            "replica 1 of 2: \(stateA.path)\n\(single[0]?.stdout ?? "-")\nreplica 2 of 2: \(stateB.path)\n\(single[1]?.stdout ?? "-")"
                + "\nfleet: 2 replicas, \(recordsA + recordsB) records, chains intact 2 of 2\n"))
        #expect(clean.stdout.hasSuffix("\nfleet clean: no violations in 2 replicas\n"))

        let json = try MediactlProcess.run(arguments + ["--json"])
        #expect(json.exitCode == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(document["clean"] as? Bool == true)
        let replicas = try #require(document["replicas"] as? [[String: Any]])
        #expect(replicas.map { $0["stateDirectory"] as? String } == [stateA.path, stateB.path])
        #expect(replicas.map { $0["recordCount"] as? Int } == [recordsA, recordsB])
        let totals = try #require(document["totals"] as? [String: Any])
        #expect(totals["replicas"] as? Int == 2)
        #expect(totals["recordCount"] as? Int == recordsA + recordsB)
        #expect(totals["objects"] as? Int == 3)   // one catalog image on A, two on B; the receipt was shredded at stop
        #expect((totals["replicasWithViolations"] as? [String]) == [])

        // A plaintext receipt planted in replica B's sealed/ab/ab/: judged against the tier folder it is in, `ab`.
        let plaintextKey = String(repeating: "ab", count: 32)
        let sealedFolder = stateB.appendingPathComponent("sealed/ab/ab")
        try FileManager.default.createDirectory(at: sealedFolder, withIntermediateDirectories: true)
        try Data(Fixtures.bytes("receipts/r-7731.png")).write(to: sealedFolder.appendingPathComponent(plaintextKey))
        let junit = world.root.appendingPathComponent("fleet.xml").path
        let html = world.root.appendingPathComponent("fleet.html").path
        let violated = try MediactlProcess.run(arguments + ["--junit", junit, "--html", html])
        #expect(violated.exitCode == 1)
        #expect(violated.stdout.hasPrefix("replica 1 of 2: \(stateA.path)\n\(single[0]?.stdout ?? "-")\nreplica 2 of 2: \(stateB.path)\n"))
        #expect(violated.stdout.contains("\n  not-sealed tier=ab folder=sealed key=\(plaintextKey): sealed/ab/ab/\(plaintextKey) ("))
        #expect(violated.stdout.hasSuffix("\nfleet violations: 2 in 1 of 2 replicas: \(stateB.path)\n"))
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("<testsuite name=\"\(stateB.path): tier ab\" tests=\"13\" failures=\"2\" "))
        #expect(xml.contains("<testsuite name=\"\(stateA.path): tier public\" tests=\"13\" failures=\"0\" "))
        #expect(xml.contains("<testsuites name=\"mediactl audit\" tests=\"119\" failures=\"2\" "))
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.contains("<title>mediactl audit: 2 replicas, 2 violations</title>\n"))
        #expect(page.contains("<h2 id=\"replica-2\">Replica 2: \(stateB.path)</h2>\n"))

        let violatedJSON = try MediactlProcess.run(arguments + ["--json"])
        #expect(violatedJSON.exitCode == 1)
        let after = try #require(try JSONSerialization.jsonObject(with: Data(violatedJSON.stdout.utf8)) as? [String: Any])
        #expect((after["totals"] as? [String: Any])?["replicasWithViolations"] as? [String] == [stateB.path])
        let kinds = ((after["replicas"] as? [[String: Any]])?[1]["violations"] as? [[String: Any]])?.compactMap { $0["kind"] as? String }
        #expect(kinds == ["not-sealed", "unrecorded-object"])

        // A replica that cannot be audited: exit 2, nothing on stdout, the error names it.
        let missing = world.root.appendingPathComponent("no-such-state").path
        let unusable = try MediactlProcess.run(["audit", "--state-dir", stateA.path, "--state-dir", missing,
                                                "--policies", world.policiesDirectory.path])
        #expect(unusable.exitCode == 2)
        #expect(unusable.stdout == "")
        #expect(unusable.stderr.contains("state directory '\(missing)' does not exist"))
    }
}
