import HTTPCaching
import MediaPolicy
import MediaStorage

/// Steps 3–5 of the request flow for a `GET` or `HEAD`: the group's stored responses loaded and decided on
/// (``CacheLookup``), then a hit served, the origin asked (``Forwarding``), or a derived image made
/// (``ImageDerivation``). ``serve(_:)`` holds the pipeline's one switch over the lookup's decision.
///
/// A value over the service's stages and shared parts (``MediaService/serving``).
struct Serving: Sendable {
    let forwarding: Forwarding
    /// Derivations of one variant, coalesced.
    let derivations: SingleFlight<String, Derivation>
    /// The derive stage.
    let derivation: ImageDerivation
    /// Background refreshes (`stale-while-revalidate`).
    let background: BackgroundTasks
    /// Told of each load of a group's stored responses (``ServiceConfiguration/lookupObserver``, tests).
    let lookupObserver: (@Sendable () -> Void)?

    var commit: StoreCommit { forwarding.commit }
    /// Seconds since the epoch, from the configured clock.
    var now: Double { forwarding.now }

    /// The answer from the cache (RFC 9111): the group's stored responses decided on, then a stored response served,
    /// the origin asked, or a derived image served or made (its source through this same path). The answer carries
    /// the representation it serves (what a derived image is made from).
    /// - Parameter decided: the request's lookup and its decision when the synchronous path made them
    ///   (``cachedAnswer(_:readsFiles:)``), so its stored responses are not loaded and decided again.
    func serve(_ context: RequestContext, decided: DecidedLookup? = nil) async -> Served {
        let selection = context.variant
        // A variant is looked up and stored under its own key (the context's URL is its source's); a decided lookup
        // was made under it already.
        let stored = decided?.lookup.context ?? selection.map { variantContext(context, $0) } ?? context
        let lookup = decided?.lookup ?? self.lookup(stored)
        let counters = context.runtime.counters
        switch decided?.outcome ?? lookup.decide() {
        case .serve(let index, let status, let stale):
            counters.bump(.hits)
            if let selection {
                // No background refresh for a variant served stale: the next request that finds it unusable derives it.
                return Served(storedVariant(lookup.candidates[index], stored: stored, selection: selection, now: lookup.now,
                                            detail: status.detail))
            }
            if stale == .staleWhileRevalidate { refreshInBackground(context, candidates: lookup.candidates, selected: index) }
            return Served(.stored(lookup.candidates[index]), context: context, now: Int64(lookup.now), status: status,
                          storage: .hit)
        case .forward(var decision, let conditional, let reason, let validates):
            if let selection {
                return Served(await deriveVariant(context, stored: stored, selection: selection, candidates: lookup.candidates))
            }
            counters.bump(validates ? .revalidations : .misses)
            return await forwarding.forward(context, decision: &decision, candidates: lookup.candidates,
                                            conditional: conditional, reason: reason)
        case .answer(let response):
            return Served(selection.map { answer(response, $0) } ?? response)
        }
    }

    /// The ``CacheLookup`` of `context` now: the group's stored responses (none for a reload request).
    func lookup(_ context: RequestContext) -> CacheLookup {
        let time = now
        let candidates = context.cachePolicy == .reloadIgnoringLocalCacheData
            ? [] : load(context, now: time, readsFiles: true) ?? []
        return CacheLookup(context: context, candidates: candidates, now: time, keys: commit.keys)
    }

    /// ``CacheLookup/load(_:now:readsFiles:commit:)``, told to the ``lookupObserver``.
    func load(_ context: RequestContext, now: Double, readsFiles: Bool) -> [Candidate]? {
        lookupObserver?()
        return CacheLookup.load(context, now: now, readsFiles: readsFiles, commit: commit)
    }

    /// `stale-while-revalidate`: validate in the background, coalesced with other refreshes of the group.
    func refreshInBackground(_ context: RequestContext, candidates: [Candidate], selected: Int) {
        let conditional = ConditionalRequest.fields(candidates: candidates.map(\.response), validating: selected)
        var refresh = context
        refresh.interim = nil   // the client already has its answer: a refresh forwards no interim response
        background.run { [self, context = refresh] in
            var decision = CacheLookup(context: context, candidates: candidates, now: now, keys: commit.keys).decision
            _ = decision.lookup(now: Int64(now))
            _ = await forwarding.forward(context, decision: &decision, candidates: candidates,
                                         conditional: conditional.isEmpty ? nil : conditional, reason: .stale)
        }
    }
}

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
        return .answer(Responder.stored(candidate, context: context, now: Int64(time), status: status, storage: .hit))
    }
}
