extension Tier {
    /// Whether `name` (a query item's name as written, not percent-decoded) is one of the tier's
    /// ``ignoredQueryParameters``: equal to a listed name, or starting with a listed prefix (`utm_*`).
    public func ignoresQueryParameter(named name: Substring) -> Bool {
        ignoredQueryParameters.contains { Tier.queryPattern($0, matches: name) }
    }

    /// Whether the `ignoredQueryParameters` entry `pattern` (a name, or a prefix ending with `*`) matches `name`.
    /// Byte for byte: case-sensitive, nothing percent-decoded.
    public static func queryPattern(_ pattern: String, matches name: Substring) -> Bool {
        if pattern.utf8.last == UInt8(ascii: "*") {
            return name.utf8.starts(with: pattern.utf8.dropLast())
        }
        return name.utf8.elementsEqual(pattern.utf8)
    }

    /// `query` (without `?`) with the items the tier ignores removed, so `a.jpg?utm_source=x` and `a.jpg` are one
    /// stored response and one origin URL.
    ///
    /// An item's name is what precedes its first `=` (the whole item without one). Nothing is decoded or
    /// reordered. When an item is removed, empty items go too (`a=1&&utm_x=2` is `a=1`).
    /// - Returns: `query` itself when the tier ignores nothing in it; the remaining items joined with `&`;
    ///   `nil` when nothing remains (or `query` is `nil`).
    public func query(withoutIgnored query: String?) -> String? {
        guard let query, !ignoredQueryParameters.isEmpty else { return query }
        var kept: [Substring] = []
        var ignoredAny = false
        for item in query.split(separator: "&") {
            if ignoresQueryParameter(named: Tier.queryName(of: item)) { ignoredAny = true } else { kept.append(item) }
        }
        guard ignoredAny else { return query }
        return kept.isEmpty ? nil : kept.joined(separator: "&")
    }

    /// The name of a query item: what precedes its first `=`.
    static func queryName(of item: Substring) -> Substring {
        item.firstIndex(of: "=").map { item[..<$0] } ?? item
    }
}
