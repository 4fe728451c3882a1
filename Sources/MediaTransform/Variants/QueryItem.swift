/// One `name[=value]` item of a raw query string, as bytes, never percent-decoded.
struct QueryItem: Sendable, Hashable {
    /// The item exactly as written (`w=144`, `v=3`, `flag`).
    var raw: ArraySlice<UInt8>
    /// The bytes before the first `=` (the whole item when there is none).
    var name: ArraySlice<UInt8>
    /// The bytes after the first `=`, or `nil` when the item has no `=`.
    var value: ArraySlice<UInt8>?
    /// Position among the query's non-empty items, from 0.
    var index: Int

    /// The non-empty items of `query`, split at `&`; empty items (`&&`, a leading or trailing `&`) are
    /// dropped. Stops after `limit + 1` items, so that an over-long list costs no more than the limit.
    static func split(_ query: [UInt8], limit: Int) -> [QueryItem] {
        var items: [QueryItem] = []
        var start = query.startIndex
        while start <= query.endIndex, items.count <= limit {
            let end = query[start...].firstIndex(of: UInt8(ascii: "&")) ?? query.endIndex
            if end > start {
                let raw = query[start..<end]
                if let equals = raw.firstIndex(of: UInt8(ascii: "=")) {
                    items.append(QueryItem(raw: raw, name: raw[..<equals], value: raw[(equals + 1)...], index: items.count))
                } else {
                    items.append(QueryItem(raw: raw, name: raw, value: nil, index: items.count))
                }
            }
            start = end + 1
        }
        return items
    }

    /// The name as text (a query is valid UTF-8 and `&`/`=` are ASCII, so this is exact).
    var nameText: String { String(decoding: name, as: UTF8.self) }

    /// The item as an error shows it (``shown(_:)``).
    var shown: String { QueryItem.shown(raw) }

    /// Longest shown text, in characters, before `…`.
    static let shownLimit = 40

    /// `bytes` with every byte outside printable ASCII (`!`…`~`) as `%XX` (upper-case hex), cut to
    /// ``shownLimit`` characters followed by `…`: one line of bounded length, whatever the input.
    static func shown<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in bytes {
            let piece: [UInt8] = (0x21...0x7E).contains(byte) ? [byte]
                : [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            if out.count + piece.count > shownLimit {
                return String(decoding: out, as: UTF8.self) + "…"
            }
            out += piece
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A canonical positive decimal integer: 1–9 ASCII digits, the first not `0` (no sign, no leading
    /// zero, no fraction, no percent-encoding); anything else is `nil`.
    static func positiveInteger(_ bytes: ArraySlice<UInt8>?) -> Int? {
        guard let bytes, (1...9).contains(bytes.count), bytes.first != UInt8(ascii: "0") else { return nil }
        var value = 0
        for byte in bytes {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
