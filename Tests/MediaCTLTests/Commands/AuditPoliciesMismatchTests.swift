import Foundation
import MediaAudit
import MediaService
import Testing

@testable import MediaCTL

/// `mediactl audit` judged by policies other than the set in force at the end of the log (issue 24 item 12,
/// docs/audit-report.md "Which policies"): one line with both digests comes first, on stdout and stderr, and in JSON.
@Suite struct AuditPoliciesMismatchTests {
    /// Writes at `directory` the harness's policies with one tier's `maxTTL` changed (600 → 300); returns the set's digest.
    static func otherPolicies(like harness: ServiceStateHarness, at directory: String) throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let text = try String(contentsOfFile: harness.policiesDirectory + "/default.json", encoding: .utf8)
            .replacingOccurrences(of: #""maxTTL": 600"#, with: #""maxTTL": 300"#)
        try text.write(toFile: directory + "/default.json", atomically: true, encoding: .utf8)
        return try ServiceSetup.readPolicies(directory, overrides: []).get().digest
    }

    @Test func otherPoliciesAreNamedFirstWithBothDigests() async throws {
        let harness = try ServiceStateHarness()
        defer { Task { await harness.close() } }
        try await harness.populate()
        let inForce = harness.service.policyDigest
        let inForceSeq = try #require(try harness.records().last { $0.entry.event == .policy && $0.entry.count != nil }?.seq)
        // The same set judged by its own directory: nothing to say.
        let same = await harness.audit()
        #expect(same.stderr == "")
        #expect(same.stdout.hasPrefix("audit: "))
        // Another directory (one tier's maxTTL changed).
        let other = harness.folder.path + "/other"
        let digest = try Self.otherPolicies(like: harness, at: other)
        #expect(digest != inForce)
        let line = "policies \(other) (sha256 \(digest)) are not the set in force at the end of the log (sha256 \(inForce), "
            + "seq \(inForceSeq)): objects are judged by \(other); give --policies the directory serve ran with "
            + "(a serve given --origin records a digest that includes its overrides)"
        let judged = await harness.run(["audit", "--state-dir", harness.stateDirectory, "--policies", other])
        #expect(judged.stderr == "mediactl: warning: \(line)\n")
        #expect(judged.stdout.hasPrefix(line + "\n\naudit: "))
        let json = await harness.run(["audit", "--json", "--state-dir", harness.stateDirectory, "--policies", other])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let mismatch = try #require(object["policiesMismatch"] as? [String: Any])
        #expect(mismatch["directory"] as? String == other)
        #expect(mismatch["digest"] as? String == digest)
        #expect(mismatch["inForce"] as? String == inForce)
        #expect(mismatch["seq"] as? Int == inForceSeq)
        let plain = await harness.run(["audit", "--json", "--state-dir", harness.stateDirectory, "--policies", harness.policiesDirectory])
        #expect(!plain.stdout.contains("policiesMismatch"))
    }

    /// A fleet audit compares each replica's log with the files: each replica judged by another set is named, with
    /// its state directory, on stderr and first in its own section.
    @Test func aFleetNamesEachReplicaJudgedByOtherPolicies() async throws {
        let first = try ServiceStateHarness(), second = try ServiceStateHarness()
        defer { Task { await first.close(); await second.close() } }
        try await first.populate()
        try await second.populate()
        let inForce = [first.service.policyDigest, second.service.policyDigest]
        let seqs = try [first, second].map { harness in
            try #require(try harness.records().last { $0.entry.event == .policy && $0.entry.count != nil }?.seq)
        }
        let states = [first.stateDirectory, second.stateDirectory]
        let fleet = states.flatMap { ["--state-dir", $0] }
        let same = await first.run(["audit"] + fleet + ["--policies", first.policiesDirectory])
        #expect(same.stderr == "")
        #expect(same.stdout.hasPrefix("replica 1 of 2: \(states[0])\naudit: "))
        let other = first.folder.path + "/other"
        let digest = try Self.otherPolicies(like: first, at: other)
        let lines = (0..<2).map { index in
            "policies \(other) (sha256 \(digest)) are not the set in force at the end of the log (sha256 \(inForce[index]), "
                + "seq \(seqs[index])): objects are judged by \(other); give --policies the directory serve ran with "
                + "(a serve given --origin records a digest that includes its overrides)"
        }
        let judged = await first.run(["audit"] + fleet + ["--policies", other])
        #expect(judged.stderr == "mediactl: warning: \(states[0]): \(lines[0])\nmediactl: warning: \(states[1]): \(lines[1])\n")
        #expect(judged.stdout.hasPrefix("replica 1 of 2: \(states[0])\n\(lines[0])\n\naudit: "))
        #expect(judged.stdout.contains("\nreplica 2 of 2: \(states[1])\n\(lines[1])\n\naudit: "))
        let json = await first.run(["audit", "--json"] + fleet + ["--policies", other])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let replicas = try #require(object["replicas"] as? [[String: Any]])
        #expect(replicas.map { ($0["policiesMismatch"] as? [String: Any])?["inForce"] as? String } == inForce)
    }
}
