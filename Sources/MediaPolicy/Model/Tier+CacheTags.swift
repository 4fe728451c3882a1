import MediaCore

extension Tier {
    /// Most cache tags kept per object (docs/policy-format.md, "Cache tags"): 128. Later tags are ignored.
    public static let maximumCacheTags = 128
    /// Longest cache tag, bytes: 256.
    public static let maximumCacheTagBytes = 256

    /// Whether `tag` is a cache tag: 1 to ``maximumCacheTagBytes`` visible ASCII bytes (`!` to `~`), so no space.
    public static func isCacheTag(_ tag: String) -> Bool {
        let bytes = tag.utf8
        return !bytes.isEmpty && bytes.count <= maximumCacheTagBytes && bytes.allSatisfy { (0x21...0x7E).contains($0) }
    }

    /// The cache tags of an origin answer with `fields`: the ``tagHeader`` values (every field line), split on spaces
    /// and tabs, in order, each once; tokens that are not ``isCacheTag(_:)`` are skipped, and only the first
    /// ``maximumCacheTags`` are kept. Empty when the tier names no ``tagHeader``.
    public func cacheTags(in fields: HTTPFields) -> [String] {
        guard let tagHeader else { return [] }
        var tags: [String] = []
        var seen = Set<String>()
        for value in fields.values(for: HTTPFieldName(tagHeader)) {
            for token in value.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
                let tag = String(token)
                guard Self.isCacheTag(tag), seen.insert(tag).inserted else { continue }
                tags.append(tag)
                if tags.count == Self.maximumCacheTags { return tags }
            }
        }
        return tags
    }
}
