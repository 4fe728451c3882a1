/// The secondary cache key of a stored response (RFC 9111 §4.1): for each request field nominated
/// by the response's `Vary`, the normalised value the stored request carried, or "absent".
///
/// Values of sensitive fields (``Vary/sensitiveFieldNames``) are held only as the caller's keyed
/// digest, so raw credentials never live in keys.
public struct SecondaryKey: Sendable, Hashable, CustomStringConvertible {
    /// One nominated field.
    public struct Entry: Sendable, Hashable {
        /// The field name, lower-cased.
        public var name: String
        /// The normalised combined value; `nil` when the request had no such field
        /// (absent differs from empty, §4.1). For sensitive fields: the digest of that value.
        public var value: String?

        public init(name: String, value: String?) {
            self.name = name
            self.value = value
        }
    }

    /// Entries sorted by name, one per distinct nominated field. Empty when the response has no `Vary`.
    public var entries: [Entry]

    /// A key with no nominated fields (a response without `Vary`).
    public static let empty = SecondaryKey(entries: [])

    public init(entries: [Entry]) {
        self.entries = entries.sorted { $0.name < $1.name }
    }

    /// The nominated field names, lower-cased and sorted.
    public var fieldNames: [String] { entries.map(\.name) }

    /// An unambiguous text form to hash or persist: one line per entry, `name:-` when absent,
    /// `name:<utf8 byte count>:<value>` when present; `""` for ``empty``.
    public var canonicalForm: String {
        var out = ""
        for entry in entries {
            out += entry.name
            if let value = entry.value {
                out += ":" + String(value.utf8.count) + ":" + value
            } else {
                out += ":-"
            }
            out += "\n"
        }
        return out
    }

    public var description: String { canonicalForm }
}
