import MediaAudit
import MediaPolicy

/// Formats ``AccessLogEntry`` values as access-log lines: one JSON object and `\n` per request
/// (docs/operations.md, "Access log").
///
/// Keys, in this order: `time` (RFC 3339 UTC with milliseconds), `id`, `method`, `route` and `tier` (`null`
/// when none), then `path` or `path_digest`, `status`, `bytes`, `duration_us`, `cache`
/// (``AccessLogCacheOutcome``, `null` when none); then only when known: `origin_status`, `origin_us`,
/// `variant`, `partition`.
///
/// Privacy: `path` (the request-target as received, query included) is written only for a tier in
/// ``clearPathTiers`` and for the service's own `/_mediactl/` endpoints (path without query). Every other
/// request — a partitioned, private-cache or `no-store` tier, no route, a target refused before routing —
/// gets `path_digest`, ``digest`` of the path without its query, and its query never appears. Request
/// fields are never read, so no `Authorization` or `Cookie` value can appear.
public struct AccessLogFormat: Sendable {
    /// The tiers whose paths are logged in clear.
    public var clearPathTiers: Set<String>
    /// The keyed digest of a path (``MediaService/MediaService/accessLogPathDigest(_:)`` in `serve`).
    public var digest: @Sendable (String) -> String

    public init(clearPathTiers: Set<String>, digest: @escaping @Sendable (String) -> String) {
        self.clearPathTiers = clearPathTiers
        self.digest = digest
    }

    /// The tiers whose URLs name shared objects, as the audit log's `url` rule has it: `cache` `shared`,
    /// `partition` `none`, storage other than `none`.
    public static func clearPathTiers(_ policies: PolicySet) -> Set<String> {
        Set(policies.tiers.values.filter { $0.cache == .shared && $0.partition == .none && $0.storage != .none }
            .map(\.name))
    }

    /// The line for `entry`, `\n` included.
    public func line(_ entry: AccessLogEntry) -> [UInt8] {
        var out: [UInt8] = []
        append(entry, to: &out)
        return out
    }

    /// Appends the line for `entry`, `\n` included, to `out`.
    public func append(_ entry: AccessLogEntry, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"time":""#.utf8)
        out.append(contentsOf: AuditTime(millisecondsSinceEpoch: entry.milliseconds).rfc3339.utf8)
        out.append(contentsOf: #"","id":"#.utf8)
        out.append(contentsOf: String(entry.id).utf8)
        Self.key("method", to: &out)
        Self.string(entry.method, to: &out)
        Self.key("route", to: &out)
        Self.optional(entry.route, to: &out)
        Self.key("tier", to: &out)
        Self.optional(entry.tier, to: &out)
        let path = entry.target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first
            .map(String.init) ?? ""
        if let tier = entry.tier, entry.route != nil, clearPathTiers.contains(tier) {
            Self.key("path", to: &out)
            Self.string(entry.target, to: &out)
        } else if entry.route == nil, path.hasPrefix("/_mediactl/") {
            Self.key("path", to: &out)
            Self.string(path, to: &out)
        } else {
            Self.key("path_digest", to: &out)
            Self.string(digest(path), to: &out)
        }
        Self.key("status", to: &out)
        out.append(contentsOf: String(entry.status).utf8)
        Self.key("bytes", to: &out)
        out.append(contentsOf: String(entry.bytes).utf8)
        Self.key("duration_us", to: &out)
        out.append(contentsOf: String(entry.durationMicroseconds).utf8)
        Self.key("cache", to: &out)
        Self.optional(AccessLogCacheOutcome.of(cacheStatus: entry.cacheStatus, status: entry.status)?.rawValue, to: &out)
        if let status = entry.originStatus {
            Self.key("origin_status", to: &out)
            out.append(contentsOf: String(status).utf8)
        }
        if let micros = entry.originMicroseconds {
            Self.key("origin_us", to: &out)
            out.append(contentsOf: String(micros).utf8)
        }
        if let variant = entry.variant {
            Self.key("variant", to: &out)
            Self.string(variant, to: &out)
        }
        if let partition = entry.partition {
            Self.key("partition", to: &out)
            Self.string(partition, to: &out)
        }
        out.append(contentsOf: "}\n".utf8)
    }

    /// `,"name":`.
    private static func key(_ name: StaticString, to out: inout [UInt8]) {
        out.append(UInt8(ascii: ","))
        out.append(UInt8(ascii: "\""))
        out.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        out.append(contentsOf: "\":".utf8)
    }

    private static func optional(_ value: String?, to out: inout [UInt8]) {
        if let value { string(value, to: &out) } else { out.append(contentsOf: "null".utf8) }
    }

    /// A JSON string (RFC 8259 §7): `"` and `\` escaped, control characters as `\uXXXX` (`\n`, `\r`, `\t`
    /// short), U+2028 and U+2029 as `\u2028`/`\u2029` (so a line can be embedded in JavaScript), the rest UTF-8.
    static func string(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: out.append(contentsOf: #"\""#.utf8)
            case 0x5C: out.append(contentsOf: #"\\"#.utf8)
            case 0x0A: out.append(contentsOf: #"\n"#.utf8)
            case 0x0D: out.append(contentsOf: #"\r"#.utf8)
            case 0x09: out.append(contentsOf: #"\t"#.utf8)
            case 0x00..<0x20, 0x7F, 0x2028, 0x2029:
                let hex = Array("0123456789abcdef".utf8)
                let value = Int(scalar.value)
                out.append(contentsOf: #"\u"#.utf8)
                for shift in [12, 8, 4, 0] { out.append(hex[(value >> shift) & 0xF]) }
            default:
                out.append(contentsOf: String(scalar).utf8)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
