extension Serving {
    /// What the synchronous path found for an admitted request (``cachedAnswer(_:readsFiles:)``).
    enum CachedAnswer {
        /// A fresh stored response (or variant), answered without suspending.
        case answer(ServiceResponse)
        /// No answer without the origin or a file read: ``serve(_:decided:)`` continues from `decided`, the lookup
        /// made here and its decision, or loads the group itself when `decided` is `nil` (a stored response only in a
        /// file, a method other than GET and HEAD, a reload request).
        case pending(decided: DecidedLookup?)
    }

    /// The synchronous path's answer from the cache: the group's stored responses held in memory loaded and decided
    /// on (``CacheLookup``) once; a fresh one is answered, anything else is handed on with the decision.
    /// - Parameter readsFiles: whether entries only in files may be read (`false` on an event loop).
    func cachedAnswer(_ context: RequestContext, readsFiles: Bool) -> CachedAnswer {
        guard context.method.isRead, context.cachePolicy != .reloadIgnoringLocalCacheData else {
            return .pending(decided: nil)
        }
        let time = now
        // A variant is looked up under its own key (the context's URL is its source's).
        let stored = context.variant.map { variantContext(context, $0) } ?? context
        guard let candidates = load(stored, now: time, readsFiles: readsFiles) else {
            return .pending(decided: nil)
        }
        let lookup = CacheLookup(context: stored, candidates: candidates, now: time, keys: commit.keys)
        let outcome = lookup.decide()
        // Only a fresh response is answered here: anything else takes the async path, with this decision.
        guard case .serve(let index, let status, nil) = outcome else {
            return .pending(decided: DecidedLookup(lookup: lookup, outcome: outcome))
        }
        context.runtime.counters.bump(.hits)
        let candidate = candidates[index]
        if let variant = context.variant {
            return .answer(storedVariant(candidate, stored: stored, selection: variant, now: time))
        }
        return .answer(Responder.stored(candidate, context: context, now: Int64(time), status: status, storage: "hit"))
    }
}
