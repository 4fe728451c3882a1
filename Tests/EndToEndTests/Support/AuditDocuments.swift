import Foundation

/// One line of `audit/audit*.jsonl` (docs/audit-format.md), decoded independently of MediaAudit so the
/// tests check the file format itself.
struct AuditLine: Decodable, Equatable {
    var seq: Int
    var time: String
    var event: String
    var tier: String?
    var route: String?
    var storage: String?
    var key: String?
    var partition: String?
    var reason: String?
    var bytes: Int?
    var ttl: Int?
    var count: Int?
    var url: String?
    var derivedFrom: String?
    var transform: String?
    var bodyDigest: String?
    var keyId: String?
    /// Only on `gap` records: when the log stopped being written.
    var since: String?
    var prev: String
    var hash: String

    /// Every complete, parseable line of the log folder in chain order (rotated segments, then `audit.jsonl`).
    static func read(directory: URL) -> [AuditLine] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasPrefix("audit-") && $0.hasSuffix(".jsonl") }.sorted()
        var lines: [AuditLine] = []
        for name in names + ["audit.jsonl"] {
            guard let data = try? Data(contentsOf: directory.appendingPathComponent(name)) else { continue }
            let text = String(decoding: data, as: UTF8.self)
            var parts = text.components(separatedBy: "\n")
            parts.removeLast()  // the part after the last newline: empty, or a torn line
            for part in parts {
                if let line = try? JSONDecoder().decode(AuditLine.self, from: Data(part.utf8)) { lines.append(line) }
            }
        }
        return lines
    }
}

/// The JSON document of `mediactl audit --json` (the `AuditReport` shape in docs/audit-format.md).
struct AuditReportDocument: Decodable {
    struct Chain: Decodable {
        struct Failure: Decodable {
            var kind: String
            var seq: Int
            var file: String
            var line: Int
            var detail: String
        }
        var intact: Bool
        var recordCount: Int
        var lastHash: String
        var failure: Failure?
    }
    struct Row: Decodable {
        var storage: String
        var stored: Int
        var updated: Int
        var skipped: [String: Int]
        var evicted: Int
        var expired: Int
        var purged: Int
        var invalidated: Int
        var shredded: Int
        var objects: Int
        var bytes: Int
    }
    struct Tier: Decodable {
        var tier: String
        var allowedStorage: String?
        var rows: [Row]
    }
    struct Violation: Decodable {
        var kind: String
        var tier: String?
        var key: String?
        var folder: String?
        var seq: Int?
        var evidence: String
    }
    var clean: Bool
    var chain: Chain
    var recordCount: Int
    var tiers: [Tier]
    var violations: [Violation]

    /// The row of `tier` for `storage`, or `nil`.
    func row(_ tier: String, _ storage: String) -> Row? {
        tiers.first { $0.tier == tier }?.rows.first { $0.storage == storage }
    }
}
