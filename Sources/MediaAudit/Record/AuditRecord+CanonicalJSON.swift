extension AuditRecord {
    /// The field names in canonical (byte-wise sorted) order, `hash` included.
    public static let fieldNames = [
        "bytes", "count", "event", "hash", "key", "partition", "prev", "reason", "route", "seq", "storage",
        "tier", "time", "ttl", "url",
    ]

    /// The canonical JSON of the record (docs/audit-format.md): one object, keys sorted byte-wise, no
    /// whitespace, every field present (`null` when absent), integers in decimal without sign or
    /// exponent, strings without escapes (every field's alphabet excludes `"`, `\` and control bytes).
    ///
    /// Equal to Python's `json.dumps(obj, sort_keys=True, separators=(",", ":"))`.
    /// - Parameter includingHash: `false` gives the text that `hash` covers; `true` gives the log line
    ///   (without its trailing `\n`).
    public func canonicalJSON(includingHash: Bool) -> String {
        var out = "{"
        func field(_ name: String, _ value: String?, quoted: Bool) {
            if out.utf8.count > 1 { out += "," }
            out += "\"\(name)\":"
            if let value { out += quoted ? "\"\(value)\"" : value } else { out += "null" }
        }
        field("bytes", entry.bytes.map(String.init), quoted: false)
        field("count", entry.count.map(String.init), quoted: false)
        field("event", entry.event.rawValue, quoted: true)
        if includingHash { field("hash", hash.hex, quoted: true) }
        field("key", entry.key?.hex, quoted: true)
        field("partition", entry.partition?.hex, quoted: true)
        field("prev", prev.hex, quoted: true)
        field("reason", entry.reason?.rawValue, quoted: true)
        field("route", entry.route?.rawValue, quoted: true)
        field("seq", String(seq), quoted: false)
        field("storage", entry.storage?.rawValue, quoted: true)
        field("tier", entry.tier?.rawValue, quoted: true)
        field("time", time.rfc3339, quoted: true)
        field("ttl", entry.ttl.map(String.init), quoted: false)
        field("url", entry.url?.rawValue, quoted: true)
        return out + "}"
    }

    /// The log line: `canonicalJSON(includingHash: true)` followed by `\n`.
    public var line: String { canonicalJSON(includingHash: true) + "\n" }
}
