import Foundation
import Glibc
import MediaAudit
import MediaCrypto
import Synchronization

/// A manual clock in milliseconds since the epoch; starts at 2026-11-29T11:07:15.123Z.
final class TestClock: Sendable {
    static let start: Int64 = 1_795_950_435_123
    private let value = Mutex<Int64>(TestClock.start)
    var now: Int64 { value.withLock { $0 } }
    func advance(milliseconds: Int64) { value.withLock { $0 += milliseconds } }
    var clock: AuditLog.Clock { { [self] in self.now } }
}

/// A fresh temporary folder, removed by `cleanup()`.
struct TempDirectory {
    let path: String

    init() {
        var template = Array("/tmp/mediaaudit-test-XXXXXX".utf8CString)
        let result = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(result != nil, "mkdtemp failed")
        path = String(cString: template.withUnsafeBufferPointer { $0.baseAddress! })
    }

    var audit: String { path + "/audit" }
    var active: String { audit + "/audit.jsonl" }

    func cleanup() { try? FileManager.default.removeItem(atPath: path) }

    func read(_ file: String) -> String {
        (try? String(contentsOfFile: audit + "/" + file, encoding: .utf8)) ?? ""
    }

    func write(_ file: String, _ text: String) {
        try! text.write(toFile: audit + "/" + file, atomically: false, encoding: .utf8)
    }

    func lines(_ file: String = "audit.jsonl") -> [String] {
        read(file).split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
    }

    func writeLines(_ lines: [String], _ file: String = "audit.jsonl") {
        write(file, lines.map { $0 + "\n" }.joined())
    }
}

func digest(_ text: String) -> AuditDigest { AuditDigest(SHA256.hash(text)) }
func name(_ text: String) -> AuditName { try! AuditName(text) }

/// A `store` entry of the `public` tier with key `digest(key)`.
func storeEntry(_ key: String, tier: String = "public", route: String = "catalog", storage: AuditStorage = .disk,
                bytes: Int = 100, ttl: Int = 60) -> AuditEntry {
    AuditEntry(event: .store, tier: name(tier), route: name(route), storage: storage, key: digest(key),
               reason: .tierStorage, bytes: bytes, ttl: ttl)
}

/// Writes `count` store records to a new log in `dir` and closes it.
@discardableResult
func writeLog(_ dir: TempDirectory, count: Int, clock: TestClock = TestClock()) throws -> [AuditRecord] {
    let log = try AuditLog(stateDirectory: dir.path, clock: clock.clock)
    var records: [AuditRecord] = []
    for index in 1...count {
        records.append(try log.append(storeEntry("k\(index)")))
        clock.advance(milliseconds: 1)
    }
    try log.close()
    return records
}

extension AuditReport.Row {
    /// A row of `storage` with the given counts, the others 0: an exact expectation in one line.
    static func counts(
        _ storage: AuditStorage, stored: Int = 0, updated: Int = 0, skipped: [String: Int] = [:], evicted: Int = 0,
        expired: Int = 0, purged: Int = 0, invalidated: Int = 0, shredded: Int = 0, objects: Int = 0, bytes: Int = 0,
        variantsStored: Int = 0, variantObjects: Int = 0
    ) -> AuditReport.Row {
        var row = AuditReport.Row(storage: storage)
        (row.stored, row.updated, row.skipped, row.evicted, row.expired) = (stored, updated, skipped, evicted, expired)
        (row.purged, row.invalidated, row.shredded, row.objects, row.bytes) = (purged, invalidated, shredded, objects, bytes)
        (row.variantsStored, row.variantObjects) = (variantsStored, variantObjects)
        return row
    }
}
