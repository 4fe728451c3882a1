import MediaCore
/// Which header fields a cache keeps (RFC 9111 §3.1) and which a 304 may update (§3.2).
public enum StoredFields {
    /// Hop-by-hop fields never stored (RFC 9110 §7.6.1): `connection`, `keep-alive`,
    /// `proxy-connection`, `te`, `transfer-encoding`, `upgrade`.
    public static let hopByHop: Set<String> = ["connection", "keep-alive", "proxy-connection", "te", "transfer-encoding", "upgrade"]

    /// Fields a 304 never changes in a stored response (§3.2, §4.3.4): the stored body depends on
    /// `content-length`, `content-type`, `content-encoding`, `content-range`.
    public static let bodyDependent: Set<String> = ["content-length", "content-type", "content-encoding", "content-range"]

    /// The lower-cased names that must not be stored from `fields` for `role` (§3.1): hop-by-hop
    /// fields, those listed in `Connection`, every `proxy-*` field (Proxy-Authenticate,
    /// Proxy-Authorization, Proxy-Authentication-Info, …), the names of a qualified
    /// `no-cache="…"` (any role, §5.2.2.4) and, in a shared cache, of a qualified `private="…"` (§5.2.2.7).
    public static func excludedNames(_ fields: HTTPFields, cacheControl: CacheControl, role: CacheRole) -> Set<String> {
        var names = hopByHop
        for member in fields.listValues(for: .connection) { names.insert(member.lowercased()) }
        names.formUnion(cacheControl.noCacheFieldNames)
        if role == .shared { names.formUnion(cacheControl.privateFieldNames) }
        return names
    }

    /// `fields` without the names of ``excludedNames(_:cacheControl:role:)`` and without `proxy-*`.
    /// `private="Set-Cookie"` in a shared cache drops `Set-Cookie`.
    /// - Parameter targets: targeted cache-control fields honoured (RFC 9213); the qualified `no-cache="…"` and
    ///   `private="…"` names of the one that applies are excluded too (the union: a field kept out by either
    ///   `Cache-Control` or the targeted field is not stored). Default: none.
    public static func filter(_ fields: HTTPFields, role: CacheRole, targets: [String] = []) -> HTTPFields {
        filtered(fields, cacheControl: qualifiedNames(fields, targets: targets), role: role).fields
    }

    /// `Cache-Control` of `fields` with the qualified `no-cache` / `private` field names of the targeted field
    /// that applies (if any) added.
    static func qualifiedNames(_ fields: HTTPFields, targets: [String], targeted: CacheControl? = nil) -> CacheControl {
        var names = CacheControl(fields: fields)
        if let extra = targeted ?? (targets.isEmpty ? nil : TargetedCacheControl.select(fields, targets: targets)) {
            names.noCacheFieldNames += extra.noCacheFieldNames
            names.privateFieldNames += extra.privateFieldNames
        }
        return names
    }

    /// ``filter(_:role:)`` with `fields`' already parsed `Cache-Control`; also says whether any line was removed
    /// (when none was, `fields` is returned as it is). Names are compared without lower-casing each one; only
    /// the names of `Connection`, `no-cache="…"` and `private="…"` go through a lower-cased set.
    static func filtered(_ fields: HTTPFields, cacheControl: CacheControl, role: CacheRole)
        -> (fields: HTTPFields, removedAny: Bool)
    {
        var listed: Set<String> = []
        for member in fields.listValues(for: .connection) { listed.insert(member.lowercased()) }
        listed.formUnion(cacheControl.noCacheFieldNames)
        if role == .shared { listed.formUnion(cacheControl.privateFieldNames) }
        func isExcluded(_ name: String) -> Bool {
            isHopByHopOrProxy(name) || (!listed.isEmpty && listed.contains(name.lowercased()))
        }
        guard fields.fields.contains(where: { isExcluded($0.name) }) else { return (fields, false) }
        return (HTTPFields(lines: fields.fields.filter { !isExcluded($0.name) }), true)
    }

    /// Whether `name` is one of ``hopByHop`` or starts with `proxy-` (ASCII case-insensitive).
    static func isHopByHopOrProxy(_ name: String) -> Bool {
        let utf8 = name.utf8
        // Quick reject, exact: an ASCII first byte lower-cases to itself or its ASCII lower case, so only names
        // starting with c, k, p, t or u (any case) can match; of those, only `p…` can be `proxy-…`, and the
        // others must have a hop-by-hop name's length (a non-ASCII letter that lower-cases to ASCII, U+212A
        // `K`, could only stand at the start of `keep-alive`, where the first byte is not ASCII).
        guard let first = utf8.first else { return false }
        if first < 0x80 {
            switch first | 0x20 {
            case UInt8(ascii: "p"): break
            case UInt8(ascii: "c"), UInt8(ascii: "k"), UInt8(ascii: "t"), UInt8(ascii: "u"):
                switch utf8.count {
                case 2, 7, 10, 17: break
                default: return false
                }
            default: return false
            }
        }
        guard utf8.allSatisfy({ $0 < 0x80 }) else {
            // Unicode lower-casing may map non-ASCII to ASCII (`K`, U+212A → `k`): keep the exact original rule.
            let lower = name.lowercased()
            return hopByHop.contains(lower) || lower.hasPrefix("proxy-")
        }
        if utf8.count >= 6, utf8.prefix(6).elementsEqual("proxy-".utf8, by: { HTTPFields.lowerASCII($0) == $1 }) {
            return true
        }
        switch utf8.count {
        case 2: return HTTPFields.namesEqual(name, "te")
        case 7: return HTTPFields.namesEqual(name, "upgrade")
        case 10: return HTTPFields.namesEqual(name, "connection") || HTTPFields.namesEqual(name, "keep-alive")
        case 16: return HTTPFields.namesEqual(name, "proxy-connection")
        case 17: return HTTPFields.namesEqual(name, "transfer-encoding")
        default: return false
        }
    }
}
