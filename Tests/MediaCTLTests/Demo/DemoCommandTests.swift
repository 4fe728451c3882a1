import MediaTestSupport
import Foundation
import MediaAudit
import Synchronization
import Testing

@testable import MediaCTL

/// `mediactl demo`, run in-process exactly as the binary runs it.
@Suite struct DemoCommandTests {
    /// The table rows printed by a demo run: the cells of each line between the rule and the blank line.
    static func rows(_ stdout: String) -> [[String]] {
        let lines = stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let rule = lines.firstIndex(where: { $0.hasPrefix("--  ---") }) else { return [] }
        let cells = lines[(rule + 1)...].prefix { !$0.isEmpty }.map { line in
            line.split(separator: "  ", omittingEmptySubsequences: true).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
        }
        // Two lines per request (DemoTable): `# request user status bytes note`, then `Cache-Status storage`; the row in
        // the order `# request user status Cache-Status storage bytes note`.
        return stride(from: 0, to: cells.count - 1, by: 2).map { index in
            let first = cells[index], second = cells[index + 1]
            guard first.count == 6, second.count == 2 else { return first + second }
            return [first[0], first[1], first[2], first[3], second[0], second[1], first[4], first[5]]
        }
    }

    /// Whether `text` matches `pattern`, where each `*` stands for a run of digits.
    static func matches(_ text: String, _ pattern: String) -> Bool {
        var rest = Substring(text)
        for (index, part) in pattern.split(separator: "*", omittingEmptySubsequences: false).enumerated() {
            if index > 0 {
                let digits = rest.prefix { $0.isNumber }
                if digits.isEmpty { return false }
                rest = rest.dropFirst(digits.count)
            }
            guard rest.hasPrefix(part) else { return false }
            rest = rest.dropFirst(part.count)
        }
        return rest.isEmpty
    }

    /// `(status, Cache-Status pattern, storage, bytes)` a correct service prints for each row.
    static func expectedRows() throws -> [(String, String, String, String, String, String)] {
        let origin = try DemoOrigin(samples: DemoSamples.all())
        func size(_ path: String) -> String { String(origin.files[path]!.bytes.count) }
        let astronaut = size("/catalog/astronaut-4530ade2.jpg")
        let coffee = size("/catalog/coffee-237a7131.jpg")
        let horse = size("/catalog/horse-d29d871c.jpg")
        let avatar = size("/avatars/u1001.jpg")
        let next = size("/avatars/u1001.next.jpg")
        let receipt = size("/receipts/r-7731.png")
        let ticket = size("/one-time/ticket-5510.jpg")
        // The origin sends `Date`, so a ttl may be one second short when a second boundary passes.
        let storedYear = "mediactl; fwd=uri-miss; fwd-status=200; ttl=3153*; stored; detail=disk"
        let stored60 = "mediactl; fwd=uri-miss; fwd-status=200; ttl=*; stored; detail=disk"
        let sealed = "mediactl; fwd=uri-miss; fwd-status=200; ttl=*; stored; detail=encrypted-disk"
        let noStore = "mediactl; fwd=uri-miss; fwd-status=200; detail=response-no-store"
        // Variants: derived by the service (no fwd-status); their sizes are libvips's (checked by the demo itself).
        let variantYear = "mediactl; fwd=uri-miss; ttl=3153*; stored; detail=disk"
        let sealedVariant = "mediactl; fwd=uri-miss; ttl=*; stored; detail=encrypted-disk"
        // (request, user, status, Cache-Status or its prefix, storage, bytes)
        return [
            ("/catalog/astronaut-4530ade2.jpg", "U1", "200", storedYear, "disk", astronaut),
            ("/catalog/coffee-237a7131.jpg", "U1", "200", storedYear, "disk", coffee),
            ("/catalog/horse-d29d871c.jpg", "U2", "200", storedYear, "disk", horse),
            ("/catalog/astronaut-4530ade2.jpg", "U2", "200", "mediactl; hit; ttl=3153*", "hit (disk)", astronaut),
            ("/catalog/coffee-237a7131.jpg", "U1", "200", "mediactl; hit; ttl=3153*", "hit (disk)", coffee),
            ("/avatars/u1001.jpg", "U1", "200", stored60, "disk", avatar),
            ("/avatars/u1001.jpg", "U2", "200", "mediactl; hit; ttl=*", "hit (disk)", avatar),
            ("/avatars/u1001.jpg?v=2", "U1", "200", stored60, "disk", next),
            ("/receipts/r-7731.png", "U1", "200", sealed, "encrypted-disk", receipt),
            ("/receipts/r-7731.png", "U2", "200", sealed, "encrypted-disk", receipt),
            ("/receipts/r-7731.png", "U1", "200", "mediactl; hit; ttl=*", "hit (encrypted-disk)", receipt),
            ("/receipts/r-7731.png", "anon", "401", "-", "refused (credentials-required)", "175"),
            // Signed URLs: one path, each subject's own receipt (r-7731.png for U1, r-7732.jpg for U2), sealed per subject.
            ("/web-receipts/r-7731.png", "U1 url", "200", sealed, "encrypted-disk", receipt),
            ("/web-receipts/r-7731.png", "U2 url", "200", sealed, "encrypted-disk", "20019"),
            ("/web-receipts/r-7731.png", "U1 url", "200", "mediactl; hit; ttl=*", "hit (encrypted-disk)", receipt),
            ("/large/astronaut-4000.jpg?w=144", "U1", "200", variantYear, "disk", "*"),
            ("/large/astronaut-4000.jpg?w=144", "U2", "200", "mediactl; hit; ttl=3153*", "hit (disk)", "*"),
            // The upload without its EXIF: 280 bytes fewer, the pixels untouched.
            ("/uploads/gps-orient6.jpg", "anon", "200", stored60, "disk", "233173"),
            ("/uploads/gps-orient6.jpg?w=144", "anon", "200", "mediactl; ttl=*; stored; detail=disk", "disk", "*"),
            ("/receipts/r-7732.jpg?w=144", "U1", "200", sealedVariant, "encrypted-disk", "*"),
            ("/receipts/r-7732.jpg?w=144", "U2", "200", sealedVariant, "encrypted-disk", "*"),
            ("/receipts/r-7732.jpg?w=144", "U1", "200", "mediactl; hit; ttl=*", "hit (encrypted-disk)", "*"),
            ("/one-time/ticket-5510.jpg", "U1", "200", noStore, "none (response-no-store)", ticket),
            ("/one-time/ticket-5510.jpg", "U1", "200", noStore, "none (response-no-store)", ticket),
        ]
    }

    @Test func demoPlaysEveryTierAndEndsWithACleanAudit() async throws {
        let started = ContinuousClock.now
        let run = await CLIRun.run(["demo"])
        #expect(run.status == 0)
        #expect(run.stderr == "")
        let rows = Self.rows(run.stdout)
        let expected = try Self.expectedRows()
        try #require(rows.count == expected.count, "rows: \(rows)")
        for (index, (row, want)) in zip(rows, expected).enumerated() {
            #expect(row.count == 8, "row \(index + 1): \(row)")
            #expect(row[0] == String(index + 1))
            #expect(row[1] == want.0)
            #expect(row[2] == want.1)
            #expect(row[3] == want.2, "row \(index + 1) status")
            #expect(Self.matches(row[4], want.3), "row \(index + 1): \(row[4])")
            #expect(row[5] == want.4, "row \(index + 1) storage")
            #expect(Self.matches(row[6], want.5), "row \(index + 1) bytes: \(row[6])")
            #expect(row[7] == DemoScript.steps[index].note)
        }
        // No-store rows are never stored; the 401 carries no Cache-Status.
        #expect(rows[22][4].contains("stored") == false)
        #expect(rows[23][4].contains("stored") == false)
        // The variant rows' bodies: the same bytes for both users of a shared tier, one per user of a private one.
        #expect(rows[15][6] == rows[16][6])
        #expect(Int(rows[15][6])! < 20_000)
        #expect(run.stdout.contains("\nthe origin answered 15 of 24 requests; 7 came from storage, 1 refused before any lookup\n"))
        #expect(run.stdout.contains("chain intact"))
        #expect(run.stdout.hasSuffix("\nclean: no violations\n"))
        #expect(run.stdout.contains("tier no-store (allows none)\n"))
        #expect(run.stdout.contains("    skipped none: response-no-store=2\n"))
        // The temporary state directory is gone.
        let header = run.stdout.split(separator: "\n")[1]
        let state = String(header.split(separator: "state directory ").last!.dropLast())
        #expect(state.contains("mediactl-demo-"))
        #expect(!FileManager.default.fileExists(atPath: state))
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test func auditSectionCountsEveryTier() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let out = CapturedOutput()
        let err = CapturedOutput()
        let status = await DemoCommand()
            .run(context: CommandContext(stdout: out, stderr: err, environment: [:]), configuration: .init(temporaryDirectory: temporary.path))
        #expect(status == .success)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)
        let text = out.text
        let audit = String(text[text.range(of: "\naudit: ")!.upperBound...])
        #expect(audit.hasPrefix("37 records, chain intact, last hash "))
        let lines = audit.split(separator: "\n").map(String.init)
        func row(_ tier: String) -> [String] {
            let index = lines.firstIndex { $0.hasPrefix("tier \(tier) ") }!
            return lines[index + 2].split(separator: " ").map(String.init)
        }
        // storage stored updated skipped evicted expired purged invalidated shredded objects bytes
        // public: 3 catalog images, the large source and its variant; avatar: 2 avatars, the upload and its
        // variant; private: 2 receipts and, per user, r-7732 and its variant.
        #expect(row("public").prefix(10) == ["disk", "5", "0", "0", "0", "0", "0", "0", "0", "5"])
        #expect(row("avatar").prefix(10) == ["disk", "4", "0", "0", "0", "0", "0", "0", "0", "4"])
        #expect(row("private").prefix(10) == ["encrypted-disk", "6", "0", "0", "0", "0", "0", "0", "6", "0"])
        #expect(row("no-store").prefix(10) == ["none", "0", "0", "2", "0", "0", "0", "0", "0", "0"])
        // signed-private: one receipt per subject, shredded at the stop.
        #expect(row("signed-private").prefix(10) == ["encrypted-disk", "2", "0", "0", "0", "0", "0", "0", "2", "0"])
    }

    @Test func keepServingKeepsBothServersAndTheStateDirectory() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let urls = Mutex<(service: String, origin: String, state: String)?>(nil)
        let seen = Mutex<[String]>([])
        let configuration = DemoCommand.Configuration(
            temporaryDirectory: temporary.path,
            until: {
                guard let (service, origin, state) = urls.withLock({ $0 }) else { return "no urls" }
                // A kept demo is purgeable like `serve`: serve.json names it.
                let purge = await CLIRun.run(["purge", "--route", "catalog", "--state-dir", state])
                let admin = (try? ServeStateFile.read(stateDirectory: state))?.flatMap(\.admin) ?? "none"
                let health = try? await HTTPGet.fetch("http://" + admin + "/_mediactl/health")
                let hit = try? await HTTPGet.fetch(service + "/catalog/coffee-237a7131.jpg")
                let direct = try? await HTTPGet.fetch(origin + "/catalog/coffee-237a7131.jpg")
                seen.withLock {
                    $0 = [
                        "purge \(purge.status) \(purge.stdout)",
                        "health \(health?.status ?? 0)", "catalog \(hit?.header("Cache-Status")?.prefix(13) ?? "")",
                        "origin \(direct?.header("Cache-Control") ?? "")",
                    ]
                }
                return "SIGINT"
            },
            onServing: { service, origin, state in urls.withLock { $0 = (service, origin, state) } })
        let out = CapturedOutput()
        let err = CapturedOutput()
        let status = await DemoCommand(keepServing: true)
            .run(context: CommandContext(stdout: out, stderr: err, environment: [:]), configuration: configuration)
        #expect(status == .success)
        #expect(
            seen.withLock { $0 } == [
                "purge 0 purged 3 entries\n", "health 200", "catalog mediactl; fwd", "origin public, max-age=31536000, immutable",
            ])
        #expect(!FileManager.default.fileExists(atPath: (urls.withLock { $0 }?.state ?? "") + "/serve.json"))
        let (service, _, state) = try #require(urls.withLock { $0 })
        #expect(err.text == "mediactl: SIGINT: stopping the demo; state kept in \(state)\n")
        #expect(out.text.contains("Both servers keep running; try (Ctrl-C stops them):\n"))
        #expect(
            out.text.contains(
                "  curl -s -D - -o /dev/null -H 'Authorization: Bearer demo-token-u2' \(service)/receipts/r-7732.jpg\n"))
        #expect(out.text.contains("State directory (kept): \(state)\n"))
        #expect(out.text.contains("\nclean: no violations\n"))
        // Kept, stopped cleanly: the sealed receipts (r-7731 for both users, r-7732 and its variant for both, and
        // each subject's signed receipt) were shredded at the stop.
        #expect(FileManager.default.fileExists(atPath: state))
        let records = try AuditReader.records(directory: state + "/audit")
        #expect(records.last?.event == .stop)
        #expect(records.filter { $0.event == .shred && $0.key != nil }.count == 8)
        #expect(try AuditVerifier.verify(stateDirectory: state).failure == nil)
        // The audit hint works from any directory: the demo's tiers are written next to the state.
        #expect(out.text.contains("  mediactl audit --state-dir \(state) --policies \(state)-policies\n"))
        let audit = await CLIRun.run(
            ["audit", "--state-dir", state, "--policies", state + "-policies"])
        #expect(audit.status == 0)
        #expect(audit.stdout.hasSuffix("\nclean: no violations\n"))
        try? FileManager.default.removeItem(atPath: state)
        try? FileManager.default.removeItem(atPath: state + "-policies")
    }

    @Test func unusableTemporaryDirectoryExits2() async {
        let out = CapturedOutput()
        let err = CapturedOutput()
        let status = await DemoCommand()
            .run(context: CommandContext(stdout: out, stderr: err, environment: [:]), configuration: .init(temporaryDirectory: "/nonexistent-mediactl"))
        #expect(status == .unusableInput)
        #expect(
            err.text
                == "mediactl: cannot create a temporary directory in '/nonexistent-mediactl': No such file or directory (errno 2)\n")
        #expect(out.text == "")
    }
}
