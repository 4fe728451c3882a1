import MediaTestSupport
import Foundation
import MediaAudit
import MediaService
import MediaStorage
import Testing

@testable import MediaCTL

/// `mediactl audit` on planted variant records and files: the per-tier variant counts (text and JSON),
/// exit 0 for clean variants and exit 1, with exact lines, for each variant violation.
@Suite struct AuditCommandVariantTests {
    /// A state directory with an audit log written by `AuditLog` and disk entries planted where the service
    /// puts them (`disk/<tier>/ab/cd/<hex>`).
    struct PlantedState {
        let folder: TemporaryDirectory
        var path: String { folder.path }

        init() throws { folder = try TemporaryDirectory() }

        /// The audit key of the cache key `name`: SHA-256 hex, as the service and the disk folder name it.
        static func key(_ name: String) -> AuditDigest { try! AuditDigest(hex: KeyDigest.hex(of: name)) }

        /// An entry; `from` makes it a variant of `key(from)`. Private-tier entries carry partition `U1`
        /// unless `partition` says otherwise.
        static func entry(
            _ event: AuditEvent, _ tier: String?, _ storage: AuditStorage?, _ name: String?,
            partition: String?? = .none, from: String? = nil, transform: String = "w=144,fit=inside,fmt=jpeg,q=80"
        ) -> AuditEntry {
            let credential = partition ?? (tier == "private" ? "U1" : nil)
            return AuditEntry(
                event: event, tier: tier.map { try! AuditName($0) },
                route: tier.map { try! AuditName($0 == "private" ? "receipts" : $0 == "avatar" ? "avatars" : "catalog") },
                storage: storage, key: name.map(key),
                scope: credential.map { .partitioned(key("credential:" + $0)) } ?? .none,
                reason: tier == nil ? nil : .tierStorage, bytes: tier == nil ? nil : 100,
                derivedFrom: from.map(key), transform: from.map { _ in try! AuditTransform(transform) })
        }

        func write(_ entries: [AuditEntry]) throws {
            let log = try AuditLog(stateDirectory: path)
            try log.append(contentsOf: entries)
            try log.close()
        }

        /// Plants a well-formed disk entry for `name` in `disk/<tier>/…`; returns its path relative to the
        /// state directory and its size.
        func plantDiskEntry(_ name: String, tier: String) throws -> (path: String, bytes: Int) {
            let scratch = try TemporaryDirectory()
            defer { scratch.remove() }
            let store = try DiskStore(directory: scratch.path + "/" + tier, configuration: .init(synchronizesWrites: false),
                                      integrityKey: try IntegrityKeyFile.open(stateDirectory: path))
            try store.store(StoredEntry(
                metadata: EntryMetadata(key: name, tier: tier, route: "r", requestTime: 1, responseTime: 1,
                                        expiresAt: 2_000_000_000),
                body: Array("variant bytes of \(name)".utf8)), for: name)
            let hex = KeyDigest.hex(of: name)
            let relative = "disk/\(tier)/\(hex.prefix(2))/\(hex.dropFirst(2).prefix(2))/\(hex)"
            try FileManager.default.createDirectory(
                atPath: path + "/" + (relative as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: store.filePath(for: name), toPath: path + "/" + relative)
            let bytes = try FileManager.default.attributesOfItem(atPath: path + "/" + relative)[.size] as! Int
            return (relative, bytes)
        }

        func audit(_ extra: [String] = []) async -> CLIRun {
            await CLIRun.run(["audit", "--state-dir", path, "--policies", PolicyCheckCommandTests.repositoryPolicies] + extra)
        }

        func remove() { folder.remove() }
    }

    typealias P = PlantedState

    static let header = "  storage              stored     updated     skipped     evicted     expired      purged invalidated    shredded     objects       bytes\n"

    /// Disk source and disk variant on disk, an encrypted-disk source with an encrypted-disk and a memory
    /// variant: exit 0, the variants counted.
    @Test func cleanVariantsExitZeroAndAreCounted() async throws {
        let state = try P()
        defer { state.remove() }
        try state.write([
            P.entry(.start, nil, nil, nil),
            P.entry(.store, "public", .disk, "src"),
            P.entry(.store, "public", .disk, "src?w=144", from: "src"),
            P.entry(.store, "private", .encryptedDisk, "receipt"),
            P.entry(.store, "private", .encryptedDisk, "receipt?w=288", from: "receipt", transform: "w=288,fit=inside,fmt=webp,q=80"),
            P.entry(.store, "private", .memory, "receipt?w=144", from: "receipt"),
            P.entry(.stop, nil, nil, nil),
        ])
        let source = try state.plantDiskEntry("src", tier: "public")
        let variant = try state.plantDiskEntry("src?w=144", tier: "public")
        let result = await state.audit()
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(result.stdout.contains("""

            tier private (allows encrypted-disk)
            \(Self.header)  encrypted-disk            2           0           0           0           0           0           0           0           0           0
                variants encrypted-disk: stored=1 objects=0
              memory                    1           0           0           0           0           0           0           0           0           0
                variants memory: stored=1 objects=0

            tier public (allows disk)
            \(Self.header)  disk                      2           0           0           0           0           0           0           0           2 \(String(repeating: " ", count: 11 - String(source.bytes + variant.bytes).count))\(source.bytes + variant.bytes)
                variants disk: stored=1 objects=1

            clean: no violations

            """))

        let json = await state.audit(["--json"])
        #expect(json.status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let tiers = try #require(document["tiers"] as? [[String: Any]])
        func row(_ tier: String, _ storage: String) -> [String: Any]? {
            let rows = tiers.first { $0["tier"] as? String == tier }?["rows"] as? [[String: Any]]
            return rows?.first { $0["storage"] as? String == storage }
        }
        #expect(row("public", "disk")?["variantsStored"] as? Int == 1)
        #expect(row("public", "disk")?["variantObjects"] as? Int == 1)
        #expect(row("public", "disk")?["objects"] as? Int == 2)
        #expect(row("private", "encrypted-disk")?["variantsStored"] as? Int == 1)
        #expect(row("private", "memory")?["variantsStored"] as? Int == 1)
        #expect(row("private", "memory")?["variantObjects"] as? Int == 0)
    }

    /// The misfiled case: an encrypted-disk source whose variant was written to plaintext `disk/`.
    @Test func aMisfiledVariantExitsOneWithItsEvidence() async throws {
        let state = try P()
        defer { state.remove() }
        try state.write([
            P.entry(.store, "private", .encryptedDisk, "receipt"),
            P.entry(.store, "private", .disk, "receipt?w=144", from: "receipt"),
        ])
        let file = try state.plantDiskEntry("receipt?w=144", tier: "private")
        let (source, variant) = (P.key("receipt").hex, P.key("receipt?w=144").hex)
        let result = await state.audit()
        #expect(result.status == 1)
        #expect(result.stdout.contains("\n    variants disk: stored=1 objects=1\n"))
        #expect(result.stdout.hasSuffix("""

            violations: 3
              store-wider-than-tier tier=private key=\(variant) seq=2: store record 2 stored in disk; tier private allows at most encrypted-disk
              variant-wider-than-source tier=private key=\(variant) seq=2: variant \(variant) (store record 2) stored in disk; its source \(source) was last stored in encrypted-disk (record 1)
              disk-not-allowed tier=private folder=disk key=\(variant): \(file.path) (\(file.bytes) bytes) has tier private, which allows at most encrypted-disk

            """))
        let json = await state.audit(["--json"])
        #expect(json.status == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let violations = try #require(document["violations"] as? [[String: Any]])
        #expect(violations.map { $0["kind"] as? String } == ["store-wider-than-tier", "variant-wider-than-source", "disk-not-allowed"])
        #expect(violations[1]["key"] as? String == variant)
        #expect(violations[1]["seq"] as? Int == 2)
        #expect(violations[1]["tier"] as? String == "private")
        #expect(violations[1]["folder"] is NSNull)
    }

    @Test func partitionTierAndSourceViolationsEachExitOne() async throws {
        let source = P.entry(.store, "private", .encryptedDisk, "receipt")
        let (src, variant) = (P.key("receipt").hex, P.key("v").hex)
        let u1 = String(P.key("credential:U1").hex.prefix(16)) + "…"
        let u2 = String(P.key("credential:U2").hex.prefix(16)) + "…"
        let cases: [(AuditEntry, String)] = [
            (P.entry(.store, "private", .encryptedDisk, "v", partition: "U2", from: "receipt"),
             "variant-partition-mismatch tier=private key=\(variant) seq=2: variant \(variant) (store record 2) has partition \(u2); its source \(src) has partition \(u1) (record 1)"),
            (P.entry(.store, "public", .memory, "v", partition: "U1", from: "receipt"),
             "variant-tier-mismatch tier=public key=\(variant) seq=2: variant \(variant) (store record 2) has tier public; its source \(src) has tier private (record 1)"),
            (P.entry(.store, "private", .encryptedDisk, "v", from: "never-stored"),
             "variant-source-unrecorded tier=private key=\(variant) seq=2: variant \(variant) (store record 2) derives from \(P.key("never-stored").hex), which has no earlier store or update record"),
        ]
        for (planted, line) in cases {
            let state = try P()
            defer { state.remove() }
            try state.write([source, planted])
            let result = await state.audit()
            #expect(result.status == 1)
            #expect(result.stdout.hasSuffix("\nviolations: 1\n  \(line)\n"))
        }
    }
}

extension AuditCommandVariantTests {
    /// A variant violation is evidence: `mediactl audit prune` refuses (exit 1) and removes nothing, and
    /// `mediactl audit` still names it.
    @Test func aVariantViolationIsNeverPruned() async throws {
        let state = try P()
        defer { state.remove() }
        let log = try AuditLog(stateDirectory: state.path, configuration: .init(maxSegmentBytes: 2_000))
        try log.append(contentsOf: [
            P.entry(.store, "public", .disk, "src"),
            P.entry(.store, "avatar", .disk, "src?w=144", from: "src"),
        ])
        for index in 1...12 { _ = try log.append(P.entry(.store, "public", .disk, "filler\(index)")) }
        try log.close()
        let before = AuditReader.files(directory: state.path + "/audit")
        let prune = await CLIRun.run(
            ["audit", "prune", "--keep-segments", "1", "--state-dir", state.path, "--policies",
             PolicyCheckCommandTests.repositoryPolicies])
        let (source, variant) = (P.key("src").hex, P.key("src?w=144").hex)
        #expect(prune == CLIRun(
            status: 1, stdout: "",
            stderr: "mediactl: refusing to prune: the segments to remove hold 1 variant violation (first: "
                + "variant-tier-mismatch at seq 2: variant \(variant) (store record 2) has tier avatar; its source "
                + "\(source) has tier public (record 1)); a variant must keep its source's tier and partition and no "
                + "wider storage\n"))
        #expect(AuditReader.files(directory: state.path + "/audit") == before)
        let audit = await state.audit()
        #expect(audit.status == 1)
        #expect(audit.stdout.contains("\n  variant-tier-mismatch tier=avatar key=\(variant) seq=2: "))
    }
}
