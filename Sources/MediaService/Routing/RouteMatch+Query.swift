import MediaPolicy

extension RouteMatch {
    /// This match with its query replaced by `query` (`nil`: none), the upstream URL rebuilt to match.
    func replacingQuery(_ query: String?) -> RouteMatch {
        var base = upstreamURL
        if let mark = base.firstIndex(of: "?") { base = String(base[..<mark]) }
        return RouteMatch(route: route, remainder: remainder, query: query, upstreamURL: query.map { base + "?" + $0 } ?? base)
    }

    /// This match without the query items `tier` ignores (``Tier/query(withoutIgnored:)``): what is keyed and
    /// fetched. Itself when the tier ignores nothing in the query.
    func removingIgnoredQueryParameters(of tier: Tier) -> RouteMatch {
        guard !tier.ignoredQueryParameters.isEmpty, let query else { return self }
        let kept = tier.query(withoutIgnored: query)
        return kept == query ? self : replacingQuery(kept)
    }
}
