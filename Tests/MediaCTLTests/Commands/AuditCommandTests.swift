import MediaTestSupport
import Foundation
import MediaAudit
import MediaService
import MediaStorage
import MediaServer
import Testing

@testable import MediaCTL

@Suite struct AuditCommandTests {
    @Test func cleanStateDirectoryExitsZero() async throws {
        let harness = try ServiceStateHarness()
        defer { Task { await harness.close() } }
        try await harness.populate()
        let disk = try harness.objects(in: .disk)
        let sealed = try harness.objects(in: .sealed)
        #expect(disk.count == 1)
        #expect(sealed.count == 1)
        let result = await harness.audit()
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let records = try harness.records()
        #expect(
            result.stdout.hasPrefix(
                "audit: \(records.count) records, chain intact, last hash \(records.last!.hash.hex)\n"))
        #expect(result.stdout.contains("\ntier public (allows disk)\n"))
        #expect(result.stdout.contains("\ntier private (allows encrypted-disk)\n"))
        #expect(result.stdout.hasSuffix("\nclean: no violations\n"))
        #expect(!result.stdout.contains("inventory notes"))
    }

    @Test func aServeFileOfAProcessThatIsGoneIsALogNote() async throws {
        let harness = try ServiceStateHarness()
        defer { Task { await harness.close() } }
        try await harness.populate()
        try ServeStateFile(pid: Int32.max, listen: "127.0.0.1:1", adminToken: try ServeStateFile.makeAdminToken())
            .write(stateDirectory: harness.stateDirectory)
        let result = await harness.audit()
        #expect(result.status == 0)
        #expect(result.stdout.hasSuffix("""
            clean: no violations

            log notes: 1
              dead-service: serve.json names pid \(Int32.max), which is not running (the service was killed); its sealed files stay until the next start shreds them

            """))
        try ServeStateFile(pid: getpid(), listen: "127.0.0.1:1", adminToken: try ServeStateFile.makeAdminToken())
            .write(stateDirectory: harness.stateDirectory)
        #expect(!(await harness.audit()).stdout.contains("log notes"))  // its process runs: no note
    }

    @Test func cleanJSONCountsObjectsPerTier() async throws {
        let harness = try ServiceStateHarness()
        defer { Task { await harness.close() } }
        try await harness.populate()
        let result = await harness.audit(["--json"])
        #expect(result.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["clean"] as? Bool == true)
        #expect((json["violations"] as? [Any])?.isEmpty == true)
        let tiers = try #require(json["tiers"] as? [[String: Any]])
        #expect(tiers.map { $0["tier"] as? String } == ["avatar", "no-store", "private", "public"])
        func row(_ tier: String, _ storage: String) -> [String: Any]? {
            let rows = tiers.first { $0["tier"] as? String == tier }?["rows"] as? [[String: Any]]
            return rows?.first { $0["storage"] as? String == storage }
        }
        let disk = try harness.objects(in: .disk)[0]
        let sealed = try harness.objects(in: .sealed)[0]
        #expect(row("public", "disk")?["objects"] as? Int == 1)
        #expect(row("public", "disk")?["bytes"] as? Int == disk.bytes)
        #expect(row("public", "disk")?["stored"] as? Int == 1)
        #expect(row("private", "encrypted-disk")?["objects"] as? Int == 1)
        #expect(row("private", "encrypted-disk")?["bytes"] as? Int == sealed.bytes)
        let inventory = try #require(json["inventory"] as? [String: Any])
        #expect(inventory["objects"] as? Int == 2)
        #expect((inventory["temporaryFiles"] as? [Any])?.isEmpty == true)
        #expect((inventory["defects"] as? [Any])?.isEmpty == true)
        #expect(result.stdout.hasSuffix("}\n"))
    }

    @Test func cleanAfterPurgeAndAfterStop() async throws {
        let harness = try ServiceStateHarness()
        defer { harness.folder.remove() }
        try await harness.populate()
        let endpoint = AdminEndpoint(service: harness.service, adminToken: "t")
        let purge = endpoint.respond(
            method: "POST", target: "/_mediactl/purge", fields: ["Authorization": "Bearer t"],
            body: Array(#"{"route":"catalog"}"#.utf8))
        #expect(String(decoding: purge.body, as: UTF8.self) == #"{"purged":1}"#)
        let afterPurge = await harness.audit(["--json"])
        #expect(afterPurge.status == 0)
        await harness.service.stop()
        #expect(try harness.objects(in: .sealed).isEmpty)
        let afterStop = await harness.audit()
        #expect(afterStop.status == 0)
        #expect(afterStop.stdout.hasSuffix("\nclean: no violations\n"))
        let records = try harness.records()
        #expect(records.last?.event == .stop)
        #expect(records.contains { $0.event == .shred })
        let json = await harness.audit(["--json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((document["inventory"] as? [String: Any])?["objects"] as? Int == 0)
    }

    @Test func plaintextFileInSealedIsAViolation() async throws {
        let harness = try ServiceStateHarness()
        defer { Task { await harness.close() } }
        try await harness.populate()
        let receipt = try ServiceStateHarness.fixture("receipts/r-7732.jpg")
        let hex = KeyDigest.hex(of: "planted-plaintext")
        let folder = "\(harness.stateDirectory)/sealed/private/\(hex.prefix(2))/\(hex.dropFirst(2).prefix(2))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(receipt).write(to: URL(fileURLWithPath: folder + "/" + hex))
        let result = await harness.audit()
        #expect(result.status == 1)
        let path = "sealed/private/\(hex.prefix(2))/\(hex.dropFirst(2).prefix(2))/\(hex) (\(receipt.count) bytes)"
        #expect(
            result.stdout.contains(
                """

                violations: 2
                  not-sealed tier=private folder=sealed key=\(hex): \(path) is not a sealed object
                  unrecorded-object tier=private folder=sealed key=\(hex): \(path) has no store record

                """))
        #expect(
            result.stdout.hasSuffix(
                """

                inventory notes: 1
                  not-sealed sealed/private/\(hex.prefix(2))/\(hex.dropFirst(2).prefix(2))/\(hex): no MCSE magic

                """))

        let json = await harness.audit(["--json"])
        #expect(json.status == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(document["clean"] as? Bool == false)
        let kinds = (document["violations"] as? [[String: Any]])?.compactMap { $0["kind"] as? String }
        #expect(kinds == ["not-sealed", "unrecorded-object"])
    }

    @Test func plaintextFileUnderAPrivateDiskFolderIsJudgedAgainstThatTier() async throws {
        let harness = try ServiceStateHarness()
        defer { Task { await harness.close() } }
        try await harness.populate()
        let receipt = try ServiceStateHarness.fixture("receipts/r-7732.jpg")
        let hex = KeyDigest.hex(of: "plaintext-private")
        let folder = "\(harness.stateDirectory)/disk/private/\(hex.prefix(2))/\(hex.dropFirst(2).prefix(2))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(receipt).write(to: URL(fileURLWithPath: folder + "/" + hex))
        let result = await harness.audit()
        #expect(result.status == 1)
        let path = "disk/private/\(hex.prefix(2))/\(hex.dropFirst(2).prefix(2))/\(hex) (\(receipt.count) bytes)"
        #expect(
            result.stdout.contains(
                """

                violations: 2
                  disk-not-allowed tier=private folder=disk key=\(hex): \(path) has tier private, which allows at most encrypted-disk
                  unrecorded-object tier=private folder=disk key=\(hex): \(path) has no store record

                """))
        #expect(
            result.stdout.hasSuffix(
                "\ninventory notes: 1\n  not-a-disk-entry disk/private/\(hex.prefix(2))/\(hex.dropFirst(2).prefix(2))/\(hex): bad-magic\n"
            ))
    }

    @Test func unauditedDiskObjectIsAViolation() async throws {
        let harness = try ServiceStateHarness()
        defer { Task { await harness.close() } }
        try await harness.populate()
        // A well-formed disk entry written behind the service's back (no store record).
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let store = try DiskStore(directory: scratch.path + "/public", configuration: .init(synchronizesWrites: false),
                                  integrityKey: try IntegrityKeyFile.open(stateDirectory: harness.stateDirectory))
        let entry = StoredEntry(
            metadata: EntryMetadata(
                key: "planted", tier: "public", route: "catalog", requestTime: 1, responseTime: 1,
                expiresAt: 2_000_000_000),
            body: Array("not audited".utf8))
        try store.store(entry, for: "planted")
        let hex = KeyDigest.hex(of: "planted")
        let target = "\(harness.stateDirectory)/disk/public/\(hex.prefix(2))/\(hex.dropFirst(2).prefix(2))"
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: store.filePath(for: "planted"), toPath: target + "/" + hex)
        let bytes = try harness.objects(in: .disk).first { $0.name == hex }!.bytes

        let result = await harness.audit()
        #expect(result.status == 1)
        #expect(
            result.stdout.hasSuffix(
                """

                violations: 1
                  unrecorded-object tier=public folder=disk key=\(hex): disk/public/\(hex.prefix(2))/\(hex.dropFirst(2).prefix(2))/\(hex) (\(bytes) bytes) has no store record

                """))
        let json = await harness.audit(["--json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let violations = try #require(document["violations"] as? [[String: Any]])
        #expect(violations.count == 1)
        #expect(violations.first?["kind"] as? String == "unrecorded-object")
        #expect(violations.first?["tier"] as? String == "public")
        #expect(violations.first?["key"] as? String == hex)
    }

    @Test func editedAuditLineBreaksTheChain() async throws {
        let harness = try ServiceStateHarness()
        defer { Task { await harness.close() } }
        try await harness.populate()
        let log = harness.stateDirectory + "/audit/audit.jsonl"
        let text = try String(contentsOfFile: log, encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let index = try #require(
            lines.firstIndex { $0.contains("\"event\":\"store\"") && $0.contains("\"tier\":\"public\"") })
        let edited = lines[index].replacingOccurrences(of: "\"storage\":\"disk\"", with: "\"storage\":\"memory\"")
        #expect(edited != lines[index])
        lines[index] = edited
        try lines.joined(separator: "\n").write(toFile: log, atomically: false, encoding: .utf8)
        let seq = index + 1

        let result = await harness.audit()
        #expect(result.status == 1)
        #expect(
            result.stdout.hasPrefix(
                "audit: \(try harness.records().count) records, chain broken: hash-mismatch at seq \(seq) (audit.jsonl line \(seq))\n"
            ))
        #expect(
            result.stdout.contains(
                "\n  broken-chain seq=\(seq): hash-mismatch at seq \(seq) (audit.jsonl line \(seq)): hash "))

        let json = await harness.audit(["--json"])
        #expect(json.status == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let kinds = (document["violations"] as? [[String: Any]])?.compactMap { $0["kind"] as? String } ?? []
        #expect(kinds.first == "broken-chain")
        #expect((document["chain"] as? [String: Any])?["intact"] as? Bool == false)
    }

    @Test func leftoverTempFileIsANoteNotAViolation() async throws {
        let harness = try ServiceStateHarness()
        defer { Task { await harness.close() } }
        try await harness.populate()
        let disk = try harness.objects(in: .disk)[0]
        let temporary = (disk.path as NSString).deletingLastPathComponent + "/\(disk.name).tmp-00000000000000ff"
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: harness.stateDirectory + "/" + temporary))
        let result = await harness.audit()
        #expect(result.status == 0)
        #expect(
            result.stdout.hasSuffix("\nclean: no violations\n\ninventory notes: 1\n  temporary-file \(temporary)\n"))
    }

    /// Auditing a running service: an object removed between the scan and the log read (its removal
    /// record then read) is not judged, and a temp file renamed into place meanwhile is no note.
    @Test func entriesGoneAfterTheScanAreDropped() async throws {
        let harness = try ServiceStateHarness()
        defer { Task { await harness.close() } }
        try await harness.populate()
        let disk = try harness.objects(in: .disk)[0]
        let temporary = (disk.path as NSString).deletingLastPathComponent + "/\(disk.name).tmp-00000000000000aa"
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: harness.stateDirectory + "/" + temporary))
        let scanned = try harness.inventory()
        #expect(scanned.items.map(\.path).contains(temporary))
        try FileManager.default.removeItem(atPath: harness.stateDirectory + "/" + disk.path)
        try FileManager.default.removeItem(atPath: harness.stateDirectory + "/" + temporary)
        let kept = AuditCommand.stillPresent(scanned, in: harness.stateDirectory)
        #expect(kept.items.map(\.path) == scanned.items.map(\.path).filter { $0 != disk.path && $0 != temporary })
        #expect(kept.items.count == scanned.items.count - 2)
    }

    /// A key evicted and stored again while the log is read: the file at the path is a new one (written
    /// and renamed into place), so the scanned one is gone and is not judged by the eviction record.
    @Test func aFileReplacedAfterTheScanIsDropped() async throws {
        let harness = try ServiceStateHarness()
        defer { Task { await harness.close() } }
        try await harness.populate()
        let disk = try harness.objects(in: .disk)[0]
        let scanned = try harness.inventory()
        let path = harness.stateDirectory + "/" + disk.path
        try FileManager.default.copyItem(atPath: path, toPath: path + ".copy")
        #expect(rename(path + ".copy", path) == 0)
        let kept = AuditCommand.stillPresent(scanned, in: harness.stateDirectory)
        #expect(kept.items.map(\.path) == scanned.items.map(\.path).filter { $0 != disk.path })
        // Unchanged files stay.
        #expect(AuditCommand.stillPresent(try harness.inventory(),
                                          in: harness.stateDirectory).items.count == scanned.items.count)
    }

    @Test func missingStateDirectoryIsExitTwo() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let missing = folder.path + "/none"
        let result = await CLIRun.run(
            ["audit", "--state-dir", missing, "--policies", PolicyCheckCommandTests.repositoryPolicies])
        #expect(result.status == 2)
        #expect(result.stdout == "")
        #expect(result.stderr == "mediactl: state directory '\(missing)' does not exist\n")
        let json = await CLIRun.run(["audit", "--json", "--state-dir", missing])
        #expect(json == CLIRun(status: 2, stdout: "", stderr: result.stderr))
        let file = try folder.file("plain", contents: "x")
        let notDirectory = await CLIRun.run(["audit", "--state-dir", file])
        #expect(notDirectory.status == 2)
        #expect(notDirectory.stderr == "mediactl: state directory '\(file)' is not a directory\n")
    }

    @Test func missingAuditLogIsExitTwo() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let result = await CLIRun.run(
            ["audit", "--state-dir", folder.path, "--policies", PolicyCheckCommandTests.repositoryPolicies])
        #expect(result.status == 2)
        #expect(result.stderr == "mediactl: no audit log in '\(folder.path)/audit'\n")
    }

    @Test func unreadablePoliciesAreExitTwo() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let result = await CLIRun.run(
            ["audit", "--state-dir", folder.path, "--policies", folder.path + "/none"])
        #expect(result.status == 2)
        #expect(
            result.stderr == """
                mediactl: \(folder.path)/none: does not exist; allowed: a readable directory of *.json policy files
                mediactl: cannot audit: 1 problem in \(folder.path)/none

                """)
    }

    @Test func stateDirectoryComesFromTheEnvironment() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let result = await CLIRun.run(
            ["audit", "--policies", PolicyCheckCommandTests.repositoryPolicies],
            environment: ["MEDIACTL_STATE_DIR": folder.path + "/env"])
        #expect(result.status == 2)
        #expect(result.stderr == "mediactl: state directory '\(folder.path)/env' does not exist\n")
    }
}
