import MediaCore

extension Tier {
    /// The keys of a tier's `errorTTL` (docs/policy-format.md, "Negative caching"): the origin statuses that depend
    /// on the URL alone, and `refused` (an answer the tier refused to serve: not an image, over a size limit, a
    /// redirect). Never `401`, `403` or `407` (answers about credentials), `408` or `429` (about the moment), nor a
    /// `5xx` (a failing origin is served stale or coalesced, never remembered as failing).
    public static let errorTTLKeys = ["400", "404", "405", "410", "414", "451", refusedErrorKey]

    /// The `errorTTL` key of answers the tier refused (`refused`).
    public static let refusedErrorKey = "refused"

    /// The `errorTTL` key of an origin answer with `status` on an image tier: its status when it is one of
    /// ``errorTTLKeys``, else `nil` (never stored).
    public static func errorTTLKey(status: HTTPStatus) -> String? {
        let text = String(status.code)
        return errorTTLKeys.contains(text) && text != refusedErrorKey ? text : nil
    }

    /// Seconds an origin error with `errorTTL` key `key` may be stored on this tier, or `nil` when it is not stored:
    /// the tier stores negative entries only when it is an image tier, shared, not partitioned and stores at all.
    public func errorLifetime(key: String) -> Int? {
        guard validatesImages, cache == .shared, partition == .none, storage != .none else { return nil }
        return errorTTL[key]
    }
}
