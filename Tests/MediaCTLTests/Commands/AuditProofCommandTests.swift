import Foundation
import MediaAudit
import MediaService
import MediaCrypto
import MediaTestSupport
import Testing

@testable import MediaCTL

/// `audit public-key`, `audit checkpoint`, `audit prove` and `audit consistency` over a real state directory: what they
/// print verifies with the published key alone, and a log altered and re-chained after a checkpoint no longer extends it.
@Suite(.serialized) struct AuditProofCommandTests {
    /// A populated state directory, its `--state-dir` arguments, and a folder for the files a test writes.
    static func populated() async throws -> (harness: ServiceStateHarness, state: [String], folder: TemporaryDirectory) {
        let harness = try ServiceStateHarness()
        try await harness.populate()
        return (harness, ["--state-dir", harness.stateDirectory], try TemporaryDirectory())
    }

    /// The log's lines as written.
    static func lines(_ harness: ServiceStateHarness) throws -> [String] {
        try AuditReader.lines(directory: harness.stateDirectory + "/audit").filter(\.terminated).map(\.text)
    }

    @Test func checkpointsAndProofsVerifyWithThePublishedKey() async throws {
        let harness = try ServiceStateHarness()
        defer { Task { await harness.close() } }
        try await harness.populate()
        let state = ["--state-dir", harness.stateDirectory]
        let key = await harness.run(["audit", "public-key"] + state)
        #expect(key.status == 0)
        #expect(key.stdout.wholeMatch(of: /mediactl\/audit\/[0-9a-f]{16}\+[0-9a-f]{8}\+[A-Za-z0-9+\/]{44}\n/) != nil)
        let verifier = try NoteVerifier(verifierKey: String(key.stdout.dropLast()))
        let lines = try Self.lines(harness)
        let checkpoint = await harness.run(["audit", "checkpoint"] + state)
        #expect(checkpoint.status == 0)
        let head = try TreeCheckpoint(text: verifier.open(checkpoint.stdout))
        #expect(head.origin == verifier.name)
        #expect(head.size == lines.count)
        // A leaf's entry is the record's `hash`.
        let leaves = try lines.map { AuditTree.leafHash(try AuditRecord.parse(line: $0).hash) }
        #expect(head.root == MerkleTree.root(leaves[...]))
        for index in [0, 2, lines.count - 1] {
            let proved = await harness.run(["audit", "prove", "--index", String(index)] + state)
            #expect(proved.status == 0)
            let proof = try TlogProof(text: proved.stdout)
            #expect(proof.index == index)
            let signed = try TreeCheckpoint(text: verifier.open(proof.checkpoint))
            #expect(MerkleTree.verifyInclusion(leaf: leaves[index], index: index, size: signed.size,
                                               proof: proof.proof, root: signed.root))
        }
        let outside = await harness.run(["audit", "prove", "--index", String(lines.count)] + state)
        #expect(outside.status == 2)
        #expect(outside.stderr == "mediactl: --index \(lines.count): the tree has \(lines.count) records (allowed: 0…\(lines.count - 1))\n")
        let tooLarge = await harness.run(["audit", "checkpoint", "--size", String(lines.count + 1)] + state)
        #expect(tooLarge.stderr == "mediactl: --size \(lines.count + 1): the log has \(lines.count) records (allowed: 1…\(lines.count))\n")
    }

    @Test func aLogAlteredAndRechainedAfterACheckpointNoLongerExtendsIt() async throws {
        let (harness, state, folder) = try await AuditProofCommandTests.populated()
        defer { Task { await harness.close() }; folder.remove() }
        let old = try folder.file("old.checkpoint", contents: await harness.run(["audit", "checkpoint", "--size", "3"] + state).stdout)
        let new = try folder.file("new.checkpoint", contents: await harness.run(["audit", "checkpoint"] + state).stdout)
        let consistent = await harness.run(["audit", "consistency", old, new] + state)
        #expect(consistent.status == 0)
        #expect(consistent.stdout.hasSuffix("consistent: 3 → \(try Self.lines(harness).count)\n"))
        // Record 2's time changed and every later hash recomputed: the chain verifies, the earlier checkpoint does not.
        await harness.service.stop()
        let records = try harness.rechained(bumpingTheTimeOf: 2)
        try harness.rewriteLog(records)
        #expect(await harness.run(["audit", "verify"] + state).status == 0)
        let rechained = try folder.file("rechained.checkpoint", contents: await harness.run(["audit", "checkpoint"] + state).stdout)
        let broken = await harness.run(["audit", "consistency", old, rechained] + state)
        #expect(broken.status == 1)
        #expect(broken.stderr == "mediactl: not consistent: the log's records do not lead from '\(old)' (3 records) to '\(rechained)' (\(records.count))\n")
        // A checkpoint of the same tree signed by another key is not this log's.
        let stranger = try NoteSigner(name: "mediactl/audit/0000000000000000", key: Ed25519SigningKey.generate().key)
        let foreign = try folder.file("foreign.checkpoint", contents: try stranger.sign(
            TreeCheckpoint(text: String(try String(contentsOfFile: new, encoding: .utf8).split(separator: "\n\n")[0]) + "\n").text))
        let refused = await harness.run(["audit", "consistency", old, foreign] + state)
        #expect(refused.status == 2)
        let origin = try #require(await harness.run(["audit", "public-key"] + state).stdout.split(separator: "+").first)
        #expect(refused.stderr == "mediactl: '\(foreign)': the note has no signature of \(origin)\n")
        let forged = await harness.run(["audit", "consistency", old, folder.path + "/missing"] + state)
        #expect(forged.status == 2)
        #expect(forged.stderr == "mediactl: cannot read '\(folder.path)/missing'\n")
    }

    @Test func withoutAKeyTheCommandsSaySo() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let run = await CLIRun.run(["audit", "public-key", "--state-dir", folder.path])
        #expect(run.status == 2)
        #expect(run.stderr == "mediactl: no audit signing key in '\(folder.path)/keys/audit-signing.key': the service makes it when it first starts\n")
    }
}

/// `docs/verify_audit.py` (hashlib and PyPI `cryptography` only) checks what `audit prove` and `audit consistency`
/// print: the formats are C2SP's and RFC 9162's, not mediactl's own. Runs where the test venv exists (`scripts/test-venv`).
@Suite(.serialized) struct AuditProofOfflineVerifierTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static var python: URL? { TestFixtures.venvPython }

    @Test(.enabled(if: AuditProofOfflineVerifierTests.python != nil, "scripts/test-venv makes the venv with PyPI cryptography"))
    func thePythonVerifierAcceptsMediactlsProofsAndRefusesAlteredOnes() async throws {
        let (harness, state, folder) = try await AuditProofCommandTests.populated()
        defer { Task { await harness.close() }; folder.remove() }
        let key = String(await harness.run(["audit", "public-key"] + state).stdout.dropLast())
        let lines = try AuditProofCommandTests.lines(harness)
        let script = Self.root.appendingPathComponent("docs/verify_audit.py").path
        let python = try #require(Self.python)
        let proof = try folder.file("p.tlog-proof", contents: await harness.run(["audit", "prove", "--index", "2"] + state).stdout)
        let line = try folder.file("line", contents: lines[2] + "\n")
        let ok = try ChildProcess.run(python, [script, "proof", key, proof, line])
        #expect(ok.status == 0, "\(ok.stdout) \(ok.stderr)")
        #expect(ok.stdout == "ok: record 2 is in the log of \(lines.count) records\n")
        let otherLine = try folder.file("other", contents: lines[3] + "\n")
        let wrong = try ChildProcess.run(python, [script, "proof", key, proof, otherLine])
        #expect(wrong.status == 1)
        #expect(wrong.stdout == "failed: the record is not at index 2 of the checkpoint's tree\n")
        // A line changed but for its `hash`: the hash no longer covers it.
        let altered = try folder.file("altered", contents: lines[2].replacingOccurrences(of: "\"seq\":3", with: "\"seq\":4") + "\n")
        let refused = try ChildProcess.run(python, [script, "proof", key, proof, altered])
        #expect(refused.status == 1)
        #expect(refused.stdout == "failed: the record's hash is not the SHA-256 of its line\n")
        let old = try folder.file("old", contents: await harness.run(["audit", "checkpoint", "--size", "3"] + state).stdout)
        let new = try folder.file("new", contents: await harness.run(["audit", "checkpoint"] + state).stdout)
        let consistency = try folder.file("c", contents: await harness.run(["audit", "consistency", old, new] + state).stdout)
        let extends = try ChildProcess.run(python, [script, "consistency", key, old, new, consistency])
        #expect(extends.stdout == "ok: \(lines.count) extends 3\n")
        let backwards = try ChildProcess.run(python, [script, "consistency", key, new, old, consistency])
        #expect(backwards.status == 1)
    }

    /// Issue 42: a log whose record 17 was altered and re-chained (`audit verify` still passes) no longer extends a
    /// checkpoint taken before: `audit consistency` exits 1, and the Python verifier refuses the re-chained checkpoint
    /// with the proof that held before.
    @Test(.enabled(if: AuditProofOfflineVerifierTests.python != nil, "scripts/test-venv makes the venv with PyPI cryptography"))
    func aLogWhoseRecord17WasAlteredAndRechainedFailsTheConsistencyProof() async throws {
        let (harness, state, folder) = try await AuditProofCommandTests.populated()
        defer { Task { await harness.close() }; folder.remove() }
        // More records: an answer the public tier must not store is a `skip` record each time.
        harness.origin.setReply(.init(status: 200, fields: ["Cache-Control": "no-store"],
                                      body: try ServiceStateHarness.fixture("catalog/horse-d29d871c.jpg")),
                                for: "http://origin.test/catalog/skipped.jpg")
        for _ in 0..<20 { _ = await harness.service.handle(ServiceRequest(target: "/catalog/skipped.jpg")) }
        let count = try AuditProofCommandTests.lines(harness).count
        #expect(count >= 24)
        let key = String(await harness.run(["audit", "public-key"] + state).stdout.dropLast())
        let script = Self.root.appendingPathComponent("docs/verify_audit.py").path
        let python = try #require(Self.python)
        let old = try folder.file("old", contents: await harness.run(["audit", "checkpoint", "--size", "20"] + state).stdout)
        let new = try folder.file("new", contents: await harness.run(["audit", "checkpoint"] + state).stdout)
        let proof = try folder.file("proof", contents: await harness.run(["audit", "consistency", old, new] + state).stdout)
        let extends = try ChildProcess.run(python, [script, "consistency", key, old, new, proof])
        #expect(extends.stdout == "ok: \(count) extends 20\n")

        // Record 17's time changed and every later hash recomputed.
        await harness.service.stop()
        let records = try harness.rechained(bumpingTheTimeOf: 17)
        try harness.rewriteLog(records)
        #expect(await harness.run(["audit", "verify"] + state).status == 0)
        let rechained = try folder.file("rechained", contents: await harness.run(["audit", "checkpoint"] + state).stdout)
        let broken = await harness.run(["audit", "consistency", old, rechained] + state)
        #expect(broken.status == 1)
        #expect(broken.stderr == "mediactl: not consistent: the log's records do not lead from '\(old)' (20 records) to '\(rechained)' (\(records.count))\n")
        let refused = try ChildProcess.run(python, [script, "consistency", key, old, rechained, proof])
        #expect(refused.status == 1)
        #expect(refused.stdout == "failed: the checkpoint of \(records.count) records does not extend the one of 20\n")
    }
}

/// `audit export`: every record from an index on, with its leaf index, as JSON Lines or RFC 5424 syslog lines.
@Suite(.serialized) struct AuditExportCommandTests {
    @Test func exportsFromAnIndexInBothFormats() async throws {
        let harness = try ServiceStateHarness()
        defer { Task { await harness.close() } }
        try await harness.populate()
        let state = ["--state-dir", harness.stateDirectory]
        let records = try AuditReader.records(directory: harness.stateDirectory + "/audit")
        let lines = try AuditProofCommandTests.lines(harness)
        let jsonl = await harness.run(["audit", "export", "--since", "2"] + state)
        #expect(jsonl.status == 0)
        let exported = jsonl.stdout.split(separator: "\n").map(String.init)
        #expect(exported.count == lines.count - 2)
        for (offset, text) in exported.enumerated() {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            #expect(object["index"] as? Int == offset + 2)
            #expect(object["line"] as? String == lines[offset + 2])
        }
        #expect(exported[0].hasPrefix(#"{"index":2,"line":"{\"#))
        let syslog = await harness.run(["audit", "export", "--format", "syslog", "--since", String(lines.count - 1)] + state)
        #expect(syslog.stdout == "<110>1 \(records[lines.count - 1].time.rfc3339) - mediactl - audit [mediactl@32473 index=\"\(lines.count - 1)\"] \(lines[lines.count - 1])\n")
        let none = await harness.run(["audit", "export", "--since", String(lines.count)] + state)
        #expect(none == CLIRun(status: 0, stdout: "", stderr: ""))
        let bad = await harness.run(["audit", "export", "--format", "csv"] + state)
        #expect(bad.status == 64)
        #expect(bad.stderr.hasPrefix("mediactl: invalid --format 'csv': expected jsonl or syslog\n"))
    }
}

/// A complete line that is not a record stops `audit export` and `audit checkpoint` with its file and line.
@Suite(.serialized) struct AuditTreeRefusalTests {
    @Test func aLineThatIsNotARecordIsNamed() async throws {
        let (harness, state, folder) = try await AuditProofCommandTests.populated()
        defer { Task { await harness.close() }; folder.remove() }
        await harness.service.stop()
        let path = harness.stateDirectory + "/audit/audit.jsonl"
        let count = try AuditProofCommandTests.lines(harness).count
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("not json\n".utf8))
        try handle.close()
        let expected = "mediactl: cannot read the audit log in '\(harness.stateDirectory)/audit': corrupt-log: audit.jsonl line \(count + 1): not a record (invalidJSON)\n"
        let export = await harness.run(["audit", "export"] + state)
        #expect(export.status == 2)
        #expect(export.stderr == expected)
        let checkpoint = await harness.run(["audit", "checkpoint"] + state)
        #expect(checkpoint.status == 2)
        #expect(checkpoint.stderr == expected)
    }

}

extension AuditProofOfflineVerifierTests {
    @Test(.enabled(if: AuditProofOfflineVerifierTests.python != nil, "scripts/test-venv makes the venv with PyPI cryptography"))
    func thePythonVerifierAcceptsAnErasureReceiptAndRefusesAnAlteredOne() async throws {
        let (harness, state, folder) = try await AuditProofCommandTests.populated()
        defer { Task { await harness.close() }; folder.remove() }
        let key = String(await harness.run(["audit", "public-key"] + state).stdout.dropLast())
        let (_, text) = try harness.service.purgeWithReceipt(.credential(try BearerToken(token: "tok-U1")))
        let receipt = try folder.file("receipt.json", contents: text)
        let script = Self.root.appendingPathComponent("docs/verify_audit.py").path
        let python = try #require(Self.python)
        let summary = try #require(try harness.records().last { $0.entry.event == .purge })
        let ok = try ChildProcess.run(python, [script, "receipt", key, receipt])
        #expect(ok.status == 0, "\(ok.stdout) \(ok.stderr)")
        #expect(ok.stdout == "ok: the purge of partition \(summary.entry.partition!.hex.prefix(16))… (record \(summary.seq)) is in the log of \(summary.seq) records\n")
        let altered = try folder.file("altered.json", contents: text.replacingOccurrences(of: "\"objects\":1", with: "\"objects\":0"))
        let refused = try ChildProcess.run(python, [script, "receipt", key, altered])
        #expect(refused.status == 1)
        #expect(refused.stdout == "failed: the signature does not verify\n")
    }
}
