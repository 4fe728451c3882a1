import MediaCrypto

extension AuditRecord {
    /// The names of the fields every record has, in canonical (byte-wise sorted) order, `hash` included.
    public static let fieldNames = [
        "bytes", "count", "event", "hash", "key", "partition", "prev", "reason", "route", "seq", "storage",
        "tier", "time", "ttl", "url",
    ]

    /// The fields only a variant's record has (omitted, not `null`, when absent, so that the canonical
    /// JSON and hash of every other record are those of the 15-field format).
    public static let variantFieldNames = ["derivedFrom", "transform"]

    /// The field only the `store` and `update` of a body kept in a file has (omitted, not `null`, when absent,
    /// like the variant fields): `bodyDigest`.
    public static let bodyFieldNames = ["bodyDigest"]

    /// The field only a `gap` record has, always (omitted on every other record, like the variant fields).
    public static let gapFieldNames = ["since"]

    /// The field only the `store` of a negative entry has (omitted on every other record, like the variant fields).
    public static let statusFieldNames = ["status"]

    /// The field only the summary of a purge by cache tag has (omitted on every other record, like the variant fields).
    public static let tagFieldNames = ["tag"]

    /// The field only an `encrypted-disk` object's `store` or `update`, and the `shred` of a destroyed data key, have
    /// (omitted on every other record, like the variant fields).
    public static let keyIdFieldNames = ["keyId"]

    /// Every field name in canonical (byte-wise sorted) order: ``fieldNames`` with `bodyDigest` first (before
    /// `bytes`), `derivedFrom` after `count`, `keyId` after `key`, `since` and `status` after `seq`, `tag` after
    /// `storage` and `transform` after `time`.
    public static let allFieldNames = [
        "bodyDigest", "bytes", "count", "derivedFrom", "event", "hash", "key", "keyId", "partition", "prev", "reason", "route",
        "seq", "since", "status", "storage", "tag", "tier", "time", "transform", "ttl", "url",
    ]

    /// The canonical JSON of the record (docs/audit-format.md): one object, keys sorted byte-wise, no
    /// whitespace, every field of ``fieldNames`` present (`null` when absent) and the optional fields
    /// `bodyDigest`, `derivedFrom`, `transform`, the gap field `since`, `status` and `tag` only when set, integers in decimal without sign or
    /// exponent, strings without escapes (every field's alphabet excludes `"`, `\` and control bytes).
    ///
    /// Equal to Python's `json.dumps(obj, sort_keys=True, separators=(",", ":"))`.
    /// - Parameter includingHash: `false` gives the text that `hash` covers; `true` gives the log line
    ///   (without its trailing `\n`).
    public func canonicalJSON(includingHash: Bool) -> String {
        String(decoding: canonicalBytes(includingHash: includingHash), as: UTF8.self)
    }

    /// The UTF-8 bytes of ``canonicalJSON(includingHash:)``, written by hand (no `String` building).
    public func canonicalBytes(includingHash: Bool) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(includingHash ? 512 : 440)
        let hashAt = Self.appendCanonical(seq: seq, time: time, entry: entry, prev: prev, to: &out)
        if includingHash { out.insert(contentsOf: Self.hashField(hash), at: hashAt) }
        return out
    }

    /// The log line: `canonicalJSON(includingHash: true)` followed by `\n`.
    public var line: String { canonicalJSON(includingHash: true) + "\n" }

    /// Builds a record and appends its log line (with `\n`) to `out`, hashing the canonical bytes once: the line is the
    /// hashed text with `,"hash":"…"` after `event` (its sorted place), written into a gap left for it (no copy of the
    /// line, no `hash` field built apart). Returns the record and its `hash` as raw bytes (the record's Merkle leaf is
    /// made from them: ``MerkleTree/leafHash(inline:)``).
    static func append(seq: Int, time: AuditTime, entry: AuditEntry, prev: AuditDigest, to out: inout [UInt8])
        -> (record: AuditRecord, digest: InlineSHA256Digest)
    {
        let start = out.count
        let gap = appendCanonical(seq: seq, time: time, entry: entry, prev: prev, to: &out, reservingHash: true)
        let hex = gap + hashPrefix.utf8CodeUnitCount
        let (digest, text) = out.withUnsafeMutableBytes { bytes -> (InlineSHA256Digest, String) in
            let digest = SHA256.inlineHash(UnsafeRawBufferPointer(rebasing: bytes[start..<gap]),
                                           UnsafeRawBufferPointer(rebasing: bytes[(gap + hashFieldLength)...]))
            UnsafeMutableRawBufferPointer(rebasing: bytes[gap..<hex])
                .copyMemory(from: UnsafeRawBufferPointer(start: hashPrefix.utf8Start, count: hashPrefix.utf8CodeUnitCount))
            digest.writeHex(to: UnsafeMutableRawBufferPointer(rebasing: bytes[hex..<(hex + 64)]))
            bytes[hex + 64] = UInt8(ascii: "\"")
            return (digest, String(decoding: UnsafeRawBufferPointer(rebasing: bytes[hex..<(hex + 64)]), as: UTF8.self))
        }
        out.append(0x0a)
        return (AuditRecord(seq: seq, time: time, entry: entry, prev: prev, hash: AuditDigest(uncheckedHex: text)), digest)
    }

    /// What precedes the hex digits of `hash` in a line: `,"hash":"`.
    static let hashPrefix: StaticString = #","hash":""#
    /// The bytes of `,"hash":"<64 hex>"`: 74.
    static let hashFieldLength = 74

    /// `,"hash":"<hex>"`: the field that follows `event` in canonical order.
    static func hashField(_ hash: AuditDigest) -> [UInt8] {
        var field = Array(#","hash":""#.utf8)
        field.reserveCapacity(field.count + 65)
        var hex = hash.hex
        hex.withUTF8 { field.append(contentsOf: $0) }
        field.append(UInt8(ascii: "\""))
        return field
    }

    /// Appends the canonical JSON without `hash` and returns the offset at which `hash` belongs.
    /// - Parameter reservingHash: leave ``hashFieldLength`` bytes at that offset for the caller to fill.
    static func appendCanonical(seq: Int, time: AuditTime, entry: AuditEntry, prev: AuditDigest,
                                to out: inout [UInt8], reservingHash: Bool = false) -> Int {
        if let bodyDigest = entry.bodyDigest {
            appendLiteral(#"{"bodyDigest":"#, to: &out)
            appendString(bodyDigest.hex, to: &out)
            appendLiteral(#","bytes":"#, to: &out)
        } else {
            appendLiteral(#"{"bytes":"#, to: &out)
        }
        appendNumber(entry.bytes, to: &out)
        appendLiteral(#","count":"#, to: &out)
        appendNumber(entry.count, to: &out)
        if let derivedFrom = entry.derivedFrom {
            appendLiteral(#","derivedFrom":"#, to: &out)
            appendString(derivedFrom.hex, to: &out)
        }
        appendLiteral(#","event":"#, to: &out)
        appendString(entry.event.rawValue, to: &out)
        let hashAt = out.count
        if reservingHash { out.append(contentsOf: repeatElement(0, count: hashFieldLength)) }
        appendLiteral(#","key":"#, to: &out)
        appendString(entry.key?.hex, to: &out)
        if let keyId = entry.keyId {
            appendLiteral(#","keyId":"#, to: &out)
            appendString(keyId.rawValue, to: &out)
        }
        appendLiteral(#","partition":"#, to: &out)
        appendString(entry.partition?.hex, to: &out)
        appendLiteral(#","prev":"#, to: &out)
        appendString(prev.hex, to: &out)
        appendLiteral(#","reason":"#, to: &out)
        appendString(entry.reason?.rawValue, to: &out)
        appendLiteral(#","route":"#, to: &out)
        appendString(entry.route?.rawValue, to: &out)
        appendLiteral(#","seq":"#, to: &out)
        appendNumber(seq, to: &out)
        if let since = entry.since {
            appendLiteral(#","since":""#, to: &out)
            since.appendRFC3339(to: &out)
            out.append(UInt8(ascii: "\""))
        }
        if let status = entry.status {
            appendLiteral(#","status":"#, to: &out)
            appendNumber(status, to: &out)
        }
        appendLiteral(#","storage":"#, to: &out)
        appendString(entry.storage?.rawValue, to: &out)
        if let tag = entry.tag {
            appendLiteral(#","tag":"#, to: &out)
            appendString(tag.hex, to: &out)
        }
        appendLiteral(#","tier":"#, to: &out)
        appendString(entry.tier?.rawValue, to: &out)
        appendLiteral(#","time":""#, to: &out)
        time.appendRFC3339(to: &out)
        if let transform = entry.transform {
            appendLiteral(#"","transform":""#, to: &out)
            var text = transform.rawValue
            text.withUTF8 { out.append(contentsOf: $0) }
        }
        appendLiteral(#"","ttl":"#, to: &out)
        appendNumber(entry.ttl, to: &out)
        appendLiteral(#","url":"#, to: &out)
        appendString(entry.url?.rawValue, to: &out)
        out.append(UInt8(ascii: "}"))
        return hashAt
    }

    /// Appends a literal's UTF-8 bytes with one copy.
    @inline(__always)
    private static func appendLiteral(_ text: StaticString, to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private static func appendString(_ value: String?, to out: inout [UInt8]) {
        guard let value else { return appendLiteral("null", to: &out) }
        out.append(UInt8(ascii: "\""))
        var text = value
        text.withUTF8 { out.append(contentsOf: $0) }  // one copy of the contiguous bytes
        out.append(UInt8(ascii: "\""))
    }

    /// Decimal like `String(value)`: digits without leading zeros, `-` for a negative value.
    private static func appendNumber(_ value: Int?, to out: inout [UInt8]) {
        guard let value else { return appendLiteral("null", to: &out) }
        if value < 0 { return out.append(contentsOf: String(value).utf8) }
        appendDecimal(UInt64(value), minimumDigits: 1, to: &out)
    }
}

/// Appends `value` in decimal, left-padded with zeros to `minimumDigits`.
func appendDecimal(_ value: UInt64, minimumDigits: Int, to out: inout [UInt8]) {
    var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                 UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var count = 0
    var rest = value
    withUnsafeMutableBytes(of: &digits) { buffer in
        repeat {
            buffer[19 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
            count += 1
        } while rest > 0
        while count < min(minimumDigits, 20) {
            buffer[19 - count] = UInt8(ascii: "0")
            count += 1
        }
        out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[(20 - count)...]))
    }
}
