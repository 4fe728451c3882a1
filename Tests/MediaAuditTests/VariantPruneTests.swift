import Foundation
import MediaAudit
import Testing

/// Variants across `mediactl audit prune`: a source whose `store` record was pruned away is still found
/// (the checkpoint carries it, memory objects included while their process runs), a carried variant object
/// is still counted, and a variant violation is never pruned.
@Suite struct VariantPruneTests {
    typealias V = VariantReconciliationTests

    /// Appends `entries` to the log in `dir` (small segments, so that they rotate every few records).
    func append(_ entries: [AuditEntry], to dir: TempDirectory, clock: TestClock) throws {
        let log = try AuditLog(stateDirectory: dir.path, configuration: .init(maxSegmentBytes: 2_000), clock: clock.clock)
        for entry in entries {
            _ = try log.append(entry)
            clock.advance(milliseconds: 1)
        }
        try log.close()
    }

    /// `count` disk stores of the public tier, to fill segments.
    func filler(_ count: Int, from first: Int = 0) -> [AuditEntry] {
        (first..<(first + count)).map { V.entry(.store, "public", .disk, "filler\($0)") }
    }

    @Test func sourcesPrunedAwayAreStillFoundAndCarriedVariantsStillCounted() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let clock = TestClock()
        try append([
            V.entry(.start, nil, nil, nil, reason: nil),
            V.entry(.store, "private", .encryptedDisk, "src-sealed", partition: "U1"),
            V.entry(.store, "public", .memory, "src-memory"),
            V.entry(.store, "public", .disk, "src-disk"),
            V.entry(.store, "public", .disk, "v-old", from: "src-disk"),
            V.entry(.evict, "public", .disk, "src-disk", reason: "over-budget"),
        ] + filler(12), to: dir, clock: clock)
        let result = try AuditPruner.prune(directory: dir.audit, keepSegments: 1, allowedStorage: V.allowed)
        let checkpoint = try #require(result.checkpoint)
        var carried: [String] = []
        try checkpoint.forEachObject(directory: dir.audit) { carried.append($0.key!.hex) }
        #expect(carried.prefix(3) == [V.hex("src-sealed"), V.hex("src-memory"), V.hex("v-old")])
        #expect(!carried.contains(V.hex("src-disk")))
        // After the checkpoint: variants of the carried sealed and memory sources.
        try append([
            V.entry(.store, "private", .encryptedDisk, "v-sealed", partition: "U1", from: "src-sealed"),
            V.entry(.store, "public", .memory, "v-memory", from: "src-memory"),
        ], to: dir, clock: clock)
        let report = try AuditReconciler.report(
            stateDirectory: dir.path,
            inventory: [PersistedObject(folder: .disk, key: V.hex("v-old"), bytes: 10, tier: "public")],
            allowedStorage: V.allowed)
        #expect(report.chain.checkpointSeq == checkpoint.seq)
        #expect(report.violations == [])
        let rows = try #require(report.tiers.first { $0.tier == "public" }?.rows)
        #expect(rows.first { $0.storage == .disk }?.variantObjects == 1)  // v-old, by its carried record
        #expect(rows.first { $0.storage == .disk }?.variantsStored == 0)  // its store record was pruned
        #expect(rows.first { $0.storage == .memory }?.variantsStored == 1)
    }

    @Test func aStartBeforeTheCheckpointDropsTheMemoryObjects() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let clock = TestClock()
        try append([
            V.entry(.store, "public", .memory, "m-before"),
            V.entry(.stop, nil, nil, nil, reason: nil),
            V.entry(.start, nil, nil, nil, reason: nil),
            V.entry(.store, "public", .memory, "m-after"),
        ] + filler(12), to: dir, clock: clock)
        let checkpoint = try #require(try AuditPruner.prune(directory: dir.audit, keepSegments: 1).checkpoint)
        var carried: [String] = []
        try checkpoint.forEachObject(directory: dir.audit) { carried.append($0.key!.hex) }
        #expect(carried.first == V.hex("m-after"))
        #expect(!carried.contains(V.hex("m-before")))
        try append([V.entry(.store, "public", .memory, "v", from: "m-before")], to: dir, clock: clock)
        let report = try AuditReconciler.report(stateDirectory: dir.path, inventory: [], allowedStorage: V.allowed)
        #expect(report.violations.map(\.kind) == [.variantSourceUnrecorded])
    }

    @Test func aVariantViolationIsNeverPruned() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let clock = TestClock()
        try append([
            V.entry(.store, "private", .encryptedDisk, "s", partition: "U1"),  // 1
            V.entry(.store, "private", .encryptedDisk, "v", partition: "U2", from: "s"),  // 2
        ] + filler(12), to: dir, clock: clock)
        let before = AuditReader.files(directory: dir.audit)
        let message = "refusing to prune: the segments to remove hold 1 variant violation (first: "
            + "variant-partition-mismatch at seq 2: variant \(V.hex("v")) (store record 2) has partition \(V.shown("U2")); "
            + "its source \(V.hex("s")) has partition \(V.shown("U1")) (record 1)); "
            + "a variant must keep its source's tier and partition and no wider storage"
        // Judged with the policies, and without them (variants need none).
        for allowed in [V.allowed, nil] {
            #expect(throws: AuditError(.pruneRefused, message)) {
                try AuditPruner.prune(directory: dir.audit, keepSegments: 1, allowedStorage: allowed)
            }
        }
        #expect(AuditReader.files(directory: dir.audit) == before)
        #expect(try AuditCheckpoint.read(directory: dir.audit) == nil)
    }

    /// A second prune judges the variants of its segments against the first checkpoint's sources.
    @Test func aSecondPruneFindsSourcesInTheFirstCheckpoint() throws {
        let dir = TempDirectory()
        defer { dir.cleanup() }
        let clock = TestClock()
        try append([V.entry(.store, "public", .disk, "s")] + filler(12), to: dir, clock: clock)
        let first = try AuditPruner.prune(directory: dir.audit, keepSegments: 1, allowedStorage: V.allowed)
        try append([V.entry(.store, "public", .disk, "v", from: "s")] + filler(12, from: 100), to: dir, clock: clock)
        let second = try AuditPruner.prune(directory: dir.audit, keepSegments: 1, allowedStorage: V.allowed)
        #expect(try #require(second.checkpoint).seq > (try #require(first.checkpoint)).seq)
        let report = try AuditReconciler.report(stateDirectory: dir.path, inventory: [], allowedStorage: V.allowed)
        #expect(report.violations == [])
    }
}
