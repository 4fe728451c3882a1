import Foundation
import MediaAudit
import MediaCrypto

/// Writes a large audit log with the real writer, for measuring `mediactl audit` and `audit verify` on
/// it (docs/benchmarks.md, "Auditing a large log"). `MEDIABENCH_AUDIT_DIR` (required): the state
/// directory to write into; `MEDIABENCH_AUDIT_RECORDS` (default 1,000,000): how many records.
/// The mix is the soak's: per four records, a `store` of a new public key, a `skip` of a no-store
/// response, an `evict` of the oldest stored key and a `store` of a new avatar key. The log keeps its Merkle tree and
/// signs a checkpoint every 4,096 records, as the service's does (its key here is a fixed test seed).
enum AuditBenchmarks {
    static func run() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let state = environment["MEDIABENCH_AUDIT_DIR"] else {
            print("audit: set MEDIABENCH_AUDIT_DIR to a state directory to write a log into")
            return
        }
        let total = Int(environment["MEDIABENCH_AUDIT_RECORDS"] ?? "") ?? 1_000_000
        let signer = try NoteSigner(name: "mediabench/audit", key: Ed25519SigningKey(seed: Array(repeating: 1, count: 32)))
        let log = try AuditLog(stateDirectory: state, signer: signer)
        let publicTier = try AuditName("public")
        let avatarTier = try AuditName("avatar")
        let noStore = try AuditName("no-store")
        let catalog = try AuditName("catalog")
        let avatars = try AuditName("avatars")
        let oneTime = try AuditName("one-time")
        func key(_ index: Int) -> AuditDigest { AuditDigest(SHA256.hash(Array("key-\(index)".utf8))) }
        let started = Date()
        var stored = 0
        var evicted = 0
        var written = 0
        while written < total {
            let entries = [
                AuditEntry(event: .store, tier: publicTier, route: catalog, storage: .disk, key: key(stored),
                           reason: .tierStorage, bytes: 16_384, ttl: 31_536_000),
                AuditEntry(event: .skip, tier: noStore, route: oneTime, storage: AuditStorage.none,
                           key: key(-1 - written), reason: .tierNoStore, bytes: 16_384),
                AuditEntry(event: .evict, tier: publicTier, route: catalog, storage: .disk, key: key(evicted),
                           reason: try ReasonCode("over-budget"), bytes: 16_384),
                AuditEntry(event: .store, tier: avatarTier, route: avatars, storage: .disk, key: key(stored + 1),
                           reason: .tierStorage, bytes: 4_096, ttl: 300),
            ]
            for entry in entries.prefix(total - written) { _ = try log.append(entry) }
            written += min(4, total - written)
            stored += 2
            evicted += 1
        }
        try log.close()
        let seconds = Date().timeIntervalSince(started)
        print("audit: \(written) records written to \(state)/audit in \(String(format: "%.1f", seconds)) s")
    }
}
