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

    /// The time-to-live cap, seconds, for a request with or without the ``versionParameter``:
    /// ``maxTTL``, or the smaller ``unversionedMaxTTL`` when the tier has a version parameter and
    /// the request does not carry it.
    public func ttlCap(versioned: Bool) -> Int {
        guard versionParameter != nil, !versioned, let unversionedMaxTTL else { return maxTTL }
        return min(maxTTL, unversionedMaxTTL)
    }
}
