import Foundation
import HTTPCaching
import MediaAudit
import MediaCore
import MediaPolicy
import MediaService
import MediaStorage
import MediaTestSupport
import Synchronization

@testable import MediaCTL

/// A real ``MediaService`` over a ``CountingOriginFetcher`` in a temporary folder: `state/` is its
/// state directory, `policies/default.json` the default policies with `http://origin.test` origins.
final class ServiceStateHarness: Sendable {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let corpus = repository.appendingPathComponent("Tests/Fixtures/corpus")

    let folder: TemporaryDirectory
    let stateDirectory: String
    let policiesDirectory: String
    let origin = CountingOriginFetcher()
    let service: MediaService

    init(audit: AuditLog.Configuration = .init()) throws {
        folder = try TemporaryDirectory()
        stateDirectory = folder.path + "/state"
        policiesDirectory = folder.path + "/policies"
        try FileManager.default.createDirectory(atPath: policiesDirectory, withIntermediateDirectories: false)
        let text = try String(
            contentsOf: Self.repository.appendingPathComponent("Policies/default.json"), encoding: .utf8
        )
        .replacingOccurrences(of: "http://127.0.0.1:8081/", with: "http://origin.test/")
        _ = try folder.file("policies/default.json", contents: text)
        // As serve does: the set and the digest of its files, so `audit --policies` finds the set in force.
        let loaded = try ServiceSetup.readPolicies(policiesDirectory, overrides: []).get()
        service = try MediaService(
            policies: loaded.policies, fetcher: origin,
            configuration: .init(
                stateDirectory: stateDirectory, clock: { 1_800_000_000 }, audit: audit, synchronizesWrites: false,
                policyDigest: loaded.digest))
    }

    static func fixture(_ relativePath: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: corpus.appendingPathComponent(relativePath)))
    }

    /// Stores one public catalog image (disk) and one private receipt of `Bearer tok-U1` (sealed).
    func populate() async throws {
        origin.setReply(
            .init(
                status: 200, fields: ["Cache-Control": "public, max-age=31536000"],
                body: try Self.fixture("catalog/horse-d29d871c.jpg")),
            for: "http://origin.test/catalog/horse-d29d871c.jpg")
        origin.setReply(
            .init(
                status: 200, fields: ["Cache-Control": "private, max-age=60"],
                body: try Self.fixture("receipts/r-7732.jpg")),
            for: "http://origin.test/receipts/r-7732.jpg", authorization: .value("Bearer tok-U1"))
        let catalog = await service.handle(ServiceRequest(target: "/catalog/horse-d29d871c.jpg"))
        let receipt = await service.handle(
            ServiceRequest(
                target: "/receipts/r-7732.jpg", fields: ["Authorization": "Bearer tok-U1"]))
        guard catalog.outcome.storage == .stored(.disk), receipt.outcome.storage == .stored(.encryptedDisk) else {
            throw HarnessError(message: "not stored: \(catalog.outcome) \(receipt.outcome)")
        }
        service.flushWrites()   // the files exist before the tests look at the state directory
    }

    /// `mediactl <arguments>` in-process with the production actions.
    func run(_ arguments: [String]) async -> CLIRun {
        await CLIRun.run(arguments)
    }

    /// `audit --state-dir S --policies P` plus `extra`.
    func audit(_ extra: [String] = []) async -> CLIRun {
        await run(["audit", "--state-dir", stateDirectory, "--policies", policiesDirectory] + extra)
    }

    /// The inventory of the state directory, scanned as `mediactl audit` does (under its integrity key).
    func inventory() throws -> StateInventory {
        try StateInventory.scan(stateDirectory: stateDirectory, integrityKey: try IntegrityKeyFile.existing(stateDirectory: stateDirectory))
    }

    /// Relative paths (from the state directory) of the inventory's objects in `folder`.
    func objects(in folder: InventoryItem.Folder) throws -> [InventoryItem] {
        try inventory().objects.filter { $0.folder == folder }
    }

    func records() throws -> [AuditRecord] { try AuditReader.records(directory: stateDirectory + "/audit") }

    /// The log's records with record `seq`'s time one millisecond later and every record re-chained from there (each
    /// `prev` and `hash` recomputed): a change `audit verify` alone cannot see once the tree files match
    /// (``rewriteLog(_:)``).
    func rechained(bumpingTheTimeOf seq: Int) throws -> [AuditRecord] {
        var prev = AuditDigest.zero
        return try records().map { record in
            let time = record.seq == seq ? AuditTime(millisecondsSinceEpoch: record.time.millisecondsSinceEpoch + 1) : record.time
            let rewritten = AuditRecord(seq: record.seq, time: time, entry: record.entry, prev: prev)
            prev = rewritten.hash
            return rewritten
        }
    }

    /// What someone with write access to the stopped state directory does to hide a change: the log replaced by
    /// `records` (re-chained by the caller), `tree-entries` made to match them, and the signed checkpoint and frontier
    /// removed (a new one would need the key). `audit verify` then passes; only a checkpoint or receipt kept
    /// elsewhere shows the change.
    func rewriteLog(_ records: [AuditRecord]) throws {
        let audit = stateDirectory + "/audit"
        let text = records.map { String(decoding: $0.canonicalBytes(includingHash: true), as: UTF8.self) + "\n" }.joined()
        try text.write(toFile: audit + "/audit.jsonl", atomically: true, encoding: .utf8)
        let entries = records.flatMap { Hex.decode($0.hash.hex) ?? [] }
        try Data(entries).write(to: URL(fileURLWithPath: audit + "/tree-entries"))
        for name in ["tree-checkpoint", "tree-frontier"] { try? FileManager.default.removeItem(atPath: audit + "/" + name) }
    }

    func close() async {
        await service.stop()
        folder.remove()
    }
}

struct HarnessError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
