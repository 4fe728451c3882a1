extension CacheControl: CustomStringConvertible {
    /// The directives as one canonical field value, in a fixed order (`public`, `private`, `no-cache`,
    /// `no-store`, `no-transform`, `must-revalidate`, `proxy-revalidate`, `must-understand`, `max-age`,
    /// `s-maxage`, `max-stale`, `min-fresh`, `only-if-cached`, `immutable`, `stale-while-revalidate`,
    /// `stale-if-error`), e.g. `public, max-age=31536000, immutable`; `""` when empty. Qualified forms are
    /// written as quoted lists; `max-stale` without argument when it is ``anyStaleness``.
    public var description: String {
        var parts: [String] = []
        if isPublic { parts.append("public") }
        if isPrivate { parts.append("private") }
        if !privateFieldNames.isEmpty { parts.append("private=\"" + privateFieldNames.joined(separator: ", ") + "\"") }
        if noCache { parts.append("no-cache") }
        if !noCacheFieldNames.isEmpty { parts.append("no-cache=\"" + noCacheFieldNames.joined(separator: ", ") + "\"") }
        if noStore { parts.append("no-store") }
        if noTransform { parts.append("no-transform") }
        if mustRevalidate { parts.append("must-revalidate") }
        if proxyRevalidate { parts.append("proxy-revalidate") }
        if mustUnderstand { parts.append("must-understand") }
        if let maxAge { parts.append("max-age=\(maxAge)") }
        if let sharedMaxAge { parts.append("s-maxage=\(sharedMaxAge)") }
        if let maxStale { parts.append(maxStale == Self.anyStaleness ? "max-stale" : "max-stale=\(maxStale)") }
        if let minFresh { parts.append("min-fresh=\(minFresh)") }
        if onlyIfCached { parts.append("only-if-cached") }
        if immutable { parts.append("immutable") }
        if let staleWhileRevalidate { parts.append("stale-while-revalidate=\(staleWhileRevalidate)") }
        if let staleIfError { parts.append("stale-if-error=\(staleIfError)") }
        return parts.joined(separator: ", ")
    }
}
