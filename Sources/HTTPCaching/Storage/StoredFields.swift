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
        for member in fields.listValues(for: "connection") { names.insert(member.lowercased()) }
        names.formUnion(cacheControl.noCacheFieldNames)
        if role == .shared { names.formUnion(cacheControl.privateFieldNames) }
        return names
    }

    /// `fields` without the names of ``excludedNames(_:cacheControl:role:)`` and without `proxy-*`.
    /// Case C08: `private="Set-Cookie"` in a shared cache drops `Set-Cookie`.
    public static func filter(_ fields: HTTPFields, role: CacheRole) -> HTTPFields {
        let excluded = excludedNames(fields, cacheControl: CacheControl(fields: fields), role: role)
        var out = fields
        out.removeAll { excluded.contains($0) || $0.hasPrefix("proxy-") }
        return out
    }
}
