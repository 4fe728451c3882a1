import HTTPCaching

extension Tier {
    /// The `Cache-Control` value to send to clients.
    ///
    /// - Parameter origin: the origin's combined `Cache-Control` value, or `nil` when it sent none.
    /// - Returns: ``downstreamCacheControl`` when set. Otherwise: `no-store` for a `none` tier (its
    ///   content must not land in the client's cache either), `private, no-store` for a tier with
    ///   `partition: credential`, else `origin` (passed through; `nil` means send none).
    public func downstreamCacheControl(origin: String?) -> String? {
        if let downstreamCacheControl { return downstreamCacheControl }
        if storage == .none { return "no-store" }
        if partition == .credential { return "private, no-store" }
        return origin
    }

    /// The freshness rules of the tier's stored responses (RFC 9111 §4.2.1–§4.2.2): ``defaultTTL`` for a
    /// response without explicit freshness, then the heuristic unless ``heuristic`` is off.
    public var freshness: Freshness.Configuration {
        Freshness.Configuration(defaultLifetime: defaultTTL.map(Int64.init), usesHeuristic: heuristic)
    }

    /// The time-to-live cap, seconds, for a request with or without the ``versionParameter``:
    /// ``maxTTL``, or the smaller ``unversionedMaxTTL`` when the tier has a version parameter and
    /// the request does not carry it.
    public func ttlCap(versioned: Bool) -> Int {
        guard versionParameter != nil, !versioned, let unversionedMaxTTL else { return maxTTL }
        return min(maxTTL, unversionedMaxTTL)
    }
}

extension Tier {
    /// Whether `query` (the request URL's query, without `?`) carries the tier's
    /// ``versionParameter`` with a non-empty value, e.g. `v=3` in `size=2&v=3`.
    ///
    /// Names compare exactly (case-sensitive, not percent-decoded); `false` when the tier has no
    /// version parameter or `query` is `nil`.
    public func isVersioned(query: String?) -> Bool {
        guard let versionParameter, let query else { return false }
        return query.split(separator: "&").contains { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return parts[0] == versionParameter[...] && parts.count == 2 && !parts[1].isEmpty
        }
    }
}
