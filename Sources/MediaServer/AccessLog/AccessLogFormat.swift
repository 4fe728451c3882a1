import MediaAudit
import MediaPolicy
import MediaService

/// RFC 3339 UTC with milliseconds (`2026-12-02T04:30:57.123Z`, as ``MediaAudit/AuditTime``), with the text up
/// to the seconds kept for the last second seen.
public struct TimeText: Sendable {
    private var second = Int64.min
    private var prefix: [UInt8] = []

    public init() {}

    /// Appends the text of `milliseconds` since the epoch.
    public mutating func append(_ milliseconds: Int64, to out: inout [UInt8]) {
        let millis = ((milliseconds % 1000) + 1000) % 1000
        let second = (milliseconds - millis) / 1000
        if second != self.second {
            let text = AuditTime(millisecondsSinceEpoch: second * 1000).rfc3339  // "…:SS.000Z"
            prefix = Array(text.utf8.dropLast(4))
            self.second = second
        }
        out.append(contentsOf: prefix)
        out.append(UInt8(ascii: "0") + UInt8(millis / 100))
        out.append(UInt8(ascii: "0") + UInt8(millis / 10 % 10))
        out.append(UInt8(ascii: "0") + UInt8(millis % 10))
        out.append(UInt8(ascii: "Z"))
    }
}

/// What the writer keeps between lines: the text of the last second, and the digests of recent paths.
public struct AccessLogFormatState: Sendable {
    var time = TimeText()
    /// Path → ``AccessLogFormat/digest`` of paths logged as `path_digest`, at most ``digestCacheLimit``, emptied
    /// when full (only in process memory, like the request targets themselves): a hit on a private path seen
    /// recently costs a lookup instead of an HMAC.
    var digests: [String: String] = [:]
    /// The most digests kept: 4,096.
    static let digestCacheLimit = 4_096

    public init() {}
}

/// Formats ``AccessLogEntry`` values as access-log lines: one JSON object and `\n` per request
/// (docs/operations.md, "Access log").
///
/// Keys, in this order: `time` (RFC 3339 UTC with milliseconds), `id`, `method`, `route` and `tier` (`null`
/// when none), then `path` or `path_digest` (`path` `null` and `method` `null` for a request the HTTP server
/// refused unparsed), `status`, `bytes`, `duration_us`, `cache`
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
    public let clearPathTiers: Set<String>
    /// The keyed digest of a path (``MediaService/MediaService/accessLogPathDigest(_:)`` in `serve`).
    public let digest: @Sendable (String) -> String
    /// ``clearPathTiers`` as UTF-8, compared with the queued bytes.
    private let clearTierBytes: [[UInt8]]

    public init(clearPathTiers: Set<String>, digest: @escaping @Sendable (String) -> String) {
        self.clearPathTiers = clearPathTiers
        self.digest = digest
        clearTierBytes = clearPathTiers.map { Array($0.utf8) }
    }

    /// The tiers whose URLs name shared objects, as the audit log's `url` rule has it: `cache` `shared`,
    /// `partition` `none`, storage other than `none`.
    public static func clearPathTiers(_ policies: PolicySet) -> Set<String> {
        Set(policies.tiers.values.filter { $0.cache == .shared && $0.partition == .none && $0.storage != .none }
            .map(\.name))
    }

    /// The line for `entry`, `\n` included (through the queue's encoding, as ``AccessLog`` writes it).
    public func line(_ entry: AccessLogEntry) -> [UInt8] {
        let strings = (entry.method, entry.target, entry.route, entry.tier, entry.cacheStatus, entry.variant, entry.partition,
                       entry.requestID)
        let size = AccessLogRecordCodec.size(strings)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        AccessLogRecordCodec.encode(
            .init(milliseconds: entry.milliseconds, status: entry.status, bytes: entry.bytes,
                  durationMicroseconds: entry.durationMicroseconds, originStatus: entry.originStatus,
                  originMicroseconds: entry.originMicroseconds),
            id: entry.id, strings: strings, into: buffer.baseAddress!)
        var out: [UInt8] = []
        var state = AccessLogFormatState()
        AccessLogRecordCodec.forEach(in: UnsafeRawBufferPointer(buffer)) { append($0, to: &out, state: &state) }
        return out
    }

    /// Appends the line of the queued `record`, `\n` included, to `out`; `state` keeps the text of the last
    /// second written (consecutive lines of one second format only their milliseconds) and recent digests.
    func append(_ record: AccessLogRecordCodec.Record, to out: inout [UInt8], state: inout AccessLogFormatState) {
        Self.raw(#"{"time":""#, to: &out)
        state.time.append(record.milliseconds, to: &out)
        Self.raw(#"","id":"#, to: &out)
        Self.decimal(record.id, to: &out)
        Self.optionalMember("request_id", record.requestID, to: &out)
        Self.member("method", record.method, to: &out)
        Self.member("route", record.route, to: &out)
        Self.member("tier", record.tier, to: &out)
        if let target = record.target {
            if let tier = record.tier, record.route != nil, clearTierBytes.contains(where: { $0.elementsEqual(tier) }) {
                Self.member("path", target, to: &out)
            } else {
                let path = UnsafeBufferPointer(rebasing: target[..<(target.firstIndex(of: UInt8(ascii: "?")) ?? target.endIndex)])
                if record.route == nil, path.starts(with: "/_mediactl/".utf8) {
                    Self.member("path", path, to: &out)
                } else {
                    Self.key("path_digest", to: &out)
                    let key = String(decoding: path, as: UTF8.self)
                    var text: String
                    if let known = state.digests[key] {
                        text = known
                    } else {
                        text = digest(key)
                        if state.digests.count >= AccessLogFormatState.digestCacheLimit { state.digests.removeAll(keepingCapacity: true) }
                        state.digests[key] = text
                    }
                    text.withUTF8 { Self.string($0, to: &out) }
                }
            }
        } else {
            Self.member("path", nil, to: &out)
        }
        Self.member("status", decimal: record.status, to: &out)
        Self.member("bytes", decimal: record.bytes, to: &out)
        Self.member("duration_us", decimal: record.durationMicroseconds, to: &out)
        Self.key("cache", to: &out)
        if let outcome = AccessLogCacheOutcome.of(cacheStatusBytes: record.cacheStatus, status: Int(record.status)) {
            Self.raw("\"", to: &out)
            out.append(contentsOf: outcome.rawValue.utf8)
            Self.raw("\"", to: &out)
        } else {
            Self.raw("null", to: &out)
        }
        if record.originStatus >= 0 { Self.member("origin_status", decimal: record.originStatus, to: &out) }
        if record.originMicroseconds >= 0 { Self.member("origin_us", decimal: record.originMicroseconds, to: &out) }
        Self.optionalMember("variant", record.variant, to: &out)
        Self.optionalMember("partition", record.partition, to: &out)
        Self.raw("}\n", to: &out)
    }

    /// `,"name":`.
    private static func key(_ name: StaticString, to out: inout [UInt8]) {
        out.append(UInt8(ascii: ","))
        out.append(UInt8(ascii: "\""))
        raw(name, to: &out)
        raw("\":", to: &out)
    }

    /// `,"name":` and `value` as a JSON string (``string(_:to:)``), or `null` when absent.
    private static func member(_ name: StaticString, _ value: UnsafeBufferPointer<UInt8>?, to out: inout [UInt8]) {
        key(name, to: &out)
        if let value { string(value, to: &out) } else { raw("null", to: &out) }
    }

    /// `,"name":` and `value` as a JSON string, only when `value` is set (a field omitted when absent).
    private static func optionalMember(_ name: StaticString, _ value: UnsafeBufferPointer<UInt8>?, to out: inout [UInt8]) {
        if let value { member(name, value, to: &out) }
    }

    /// `,"name":` and `value` in decimal.
    private static func member(_ name: StaticString, decimal value: Int64, to out: inout [UInt8]) {
        key(name, to: &out)
        decimal(value, to: &out)
    }

    @inline(__always)
    private static func raw(_ text: StaticString, to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// `value` in decimal, without building a `String`.
    static func decimal(_ value: Int64, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)  // 32 bytes, enough for 20 digits
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[31 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[(32 - count)...]))
        }
    }

    /// A JSON string (RFC 8259 §7): `"` and `\` escaped, control characters and DEL as `\uXXXX` (`\n`, `\r`,
    /// `\t` short), U+2028 and U+2029 as `\u2028`/`\u2029` (so a line can be embedded in JavaScript), the rest
    /// UTF-8 as is. One pass over the UTF-8 bytes; a string needing no escape is appended in one copy.
    static func string(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        do {
            var clean = 0  // bytes[clean..<index] need no escape and are not yet copied
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                let escape: StaticString?
                var width = 1
                switch byte {
                case 0x22: escape = #"\""#
                case 0x5C: escape = #"\\"#
                case 0x0A: escape = #"\n"#
                case 0x0D: escape = #"\r"#
                case 0x09: escape = #"\t"#
                case 0x00..<0x20, 0x7F: escape = ""
                case 0xE2 where index + 2 < bytes.count && bytes[index + 1] == 0x80
                    && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                    escape = bytes[index + 2] == 0xA8 ? #"\u2028"# : #"\u2029"#
                    width = 3
                default: escape = nil
                }
                guard let escape else {
                    index += 1
                    continue
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[clean..<index]))
                if escape.utf8CodeUnitCount > 0 {
                    out.append(contentsOf: UnsafeBufferPointer(start: escape.utf8Start, count: escape.utf8CodeUnitCount))
                } else {
                    let hex: StaticString = "0123456789abcdef"
                    raw(#"\u00"#, to: &out)
                    out.append(hex.utf8Start[Int(byte >> 4)])
                    out.append(hex.utf8Start[Int(byte & 0xF)])
                }
                index += width
                clean = index
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[clean..<bytes.count]))
        }
        out.append(UInt8(ascii: "\""))
    }
}
