import MediaCore
/// `Vary` handling (RFC 9111 §4.1): nominated field names, secondary keys and matching.
public enum Vary {
    /// Request fields whose values are replaced by a keyed digest in secondary keys:
    /// `authorization`, `cookie`, `proxy-authorization`.
    public static let sensitiveFieldNames: Set<String> = ["authorization", "cookie", "proxy-authorization"]

    /// The nominated request field names of the response's `Vary` lines (lower-cased, de-duplicated,
    /// sorted), or `nil` when a member is `*` — also inside a list such as `Accept-Encoding, *` —
    /// in which case the response never matches (§4.1).
    public static func fieldNames(of responseFields: HTTPFields) -> [String]? {
        guard responseFields.contains(.vary) else { return [] }
        var names: [String] = []
        for member in responseFields.listValues(for: .vary) {
            if member == "*" { return nil }
            let name = member.lowercased()
            if !names.contains(name) { names.append(name) }
        }
        return names.sorted()
    }

    /// Whether the response's `Vary` contains `*`.
    public static func containsStar(_ responseFields: HTTPFields) -> Bool {
        fieldNames(of: responseFields) == nil
    }

    /// The secondary key of `request` for the nominated `fieldNames`.
    ///
    /// Each value is the combined value of all lines (RFC 9110 §5.3) with whitespace normalised
    /// (see ``normalise(_:)``); sensitive fields are passed through `digest` (the service passes
    /// HMAC-SHA256 hex under its key). An absent field is `nil`, an empty one `""` (digested when sensitive).
    public static func secondaryKey(
        for request: HTTPFields, fieldNames: [String], digest: (String) -> String
    ) -> SecondaryKey {
        var entries: [SecondaryKey.Entry] = []
        entries.reserveCapacity(fieldNames.count)
        for name in fieldNames {
            let lower = name.lowercased()
            guard !entries.contains(where: { $0.name == lower }) else { continue }
            var value = request[HTTPFieldName(lower)].map(normalise)
            if let plain = value, sensitiveFieldNames.contains(lower) { value = digest(plain) }
            entries.append(SecondaryKey.Entry(name: lower, value: value))
        }
        return SecondaryKey(entries: entries)
    }

    /// The secondary key to store with a response to `request`, or `nil` when `Vary` contains `*`.
    public static func secondaryKey(
        request: HTTPFields, responseFields: HTTPFields, digest: (String) -> String
    ) -> SecondaryKey? {
        guard let names = fieldNames(of: responseFields) else { return nil }
        return secondaryKey(for: request, fieldNames: names, digest: digest)
    }

    /// Whether a new `request` matches a stored response's secondary key (§4.1): every nominated
    /// field has the same normalised value (or digest), absent matching only absent.
    public static func matches(_ stored: SecondaryKey, request: HTTPFields, digest: (String) -> String) -> Bool {
        for entry in stored.entries {
            var value = request[HTTPFieldName(entry.name)].map(normalise)
            if let plain = value, sensitiveFieldNames.contains(entry.name) { value = digest(plain) }
            if value != entry.value { return false }
        }
        return true
    }

    /// Normalises a combined field value: outside quoted strings, runs of SP/HTAB become one SP and
    /// whitespace next to commas or at the ends is removed (`gzip ,  br` → `gzip,br`).
    public static func normalise(_ value: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(value.utf8.count)
        var pendingSpace = false, inQuotes = false, escaped = false
        for byte in value.utf8 {
            if inQuotes {
                out.append(byte)
                if escaped { escaped = false } else if byte == 0x5C { escaped = true } else if byte == 0x22 { inQuotes = false }
                continue
            }
            if byte == 0x20 || byte == 0x09 {
                pendingSpace = true
                continue
            }
            if byte == 0x2C {
                pendingSpace = false
                out.append(byte)
                continue
            }
            if pendingSpace, let last = out.last, last != 0x2C { out.append(0x20) }
            pendingSpace = false
            if byte == 0x22 { inQuotes = true }
            out.append(byte)
        }
        return String(decoding: out, as: UTF8.self)
    }
}
