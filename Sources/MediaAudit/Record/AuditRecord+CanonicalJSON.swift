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
        func length(_ text: String?) -> Int { text?.utf8.count ?? 0 }
        var bound = CanonicalWriter.boundBesidesStrings + length(entry.bodyDigest?.hex) + length(entry.derivedFrom?.hex)
        bound += length(entry.event.rawValue) + length(entry.key?.hex) + length(entry.keyId?.rawValue)
        bound += length(entry.partition?.hex) + length(prev.hex) + length(entry.reason?.rawValue)
        bound += length(entry.route?.rawValue) + length(entry.storage?.rawValue) + length(entry.tag?.hex)
        bound += length(entry.tier?.rawValue) + length(entry.transform?.rawValue) + length(entry.url?.rawValue)
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bound) { buffer in
            let base = buffer.baseAddress!
            var w = CanonicalWriter(base)
            let hashAt = writeCanonical(seq: seq, time: time, entry: entry, prev: prev, to: &w, reservingHash: reservingHash)
            assert(w.next - base <= bound, "a record's JSON outgrew its bound")
            let at = out.count + (hashAt - base)
            out.append(contentsOf: UnsafeBufferPointer(start: base, count: w.next - base))
            return at
        }
    }

    /// ``appendCanonical(seq:time:entry:prev:to:reservingHash:)`` through `w`; returns where `hash` belongs.
    private static func writeCanonical(seq: Int, time: AuditTime, entry: AuditEntry, prev: AuditDigest,
                                       to w: inout CanonicalWriter, reservingHash: Bool) -> UnsafeMutablePointer<UInt8> {
        if let bodyDigest = entry.bodyDigest {
            w.literal(#"{"bodyDigest":"#)
            w.string(bodyDigest.hex)
            w.literal(#","bytes":"#)
        } else {
            w.literal(#"{"bytes":"#)
        }
        w.number(entry.bytes)
        w.member(#","count":"#, entry.count)
        w.optionalMember(#","derivedFrom":"#, entry.derivedFrom?.hex)
        w.member(#","event":"#, entry.event.rawValue)
        let hashAt = w.next
        if reservingHash { w.gap(hashFieldLength) }
        w.member(#","key":"#, entry.key?.hex)
        w.optionalMember(#","keyId":"#, entry.keyId?.rawValue)
        w.member(#","partition":"#, entry.partition?.hex)
        w.member(#","prev":"#, prev.hex)
        w.member(#","reason":"#, entry.reason?.rawValue)
        w.member(#","route":"#, entry.route?.rawValue)
        w.member(#","seq":"#, seq)
        if let since = entry.since {
            w.literal(#","since":""#)
            w.time(since)
            w.byte(UInt8(ascii: "\""))
        }
        if let status = entry.status { w.member(#","status":"#, status) }
        w.member(#","storage":"#, entry.storage?.rawValue)
        w.optionalMember(#","tag":"#, entry.tag?.hex)
        w.member(#","tier":"#, entry.tier?.rawValue)
        w.literal(#","time":""#)
        w.time(time)
        if let transform = entry.transform {
            w.literal(#"","transform":""#)
            w.raw(transform.rawValue)
        }
        w.member(#"","ttl":"#, entry.ttl)
        w.member(#","url":"#, entry.url?.rawValue)
        w.byte(UInt8(ascii: "}"))
        return hashAt
    }
}
