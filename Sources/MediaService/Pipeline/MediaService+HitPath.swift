import HTTPCaching
import MediaStorage

extension MediaService {
    /// The memory-hit fast path shared by ``handle(_:)`` and ``handleIfCached(_:)``: a plain `GET` or
    /// `HEAD` (``HitRequest/isPlain(_:)``, default cache policy, no body) to a target already admitted
    /// once, whose group holds one stored response that needs no decision input (``PreparedHit``) and
    /// is fresh, is answered from the entry's prepared fields. Returns `nil` whenever any of that does
    /// not hold; the full path then gives the answer (exactly the answer it would give anyway).
    func fastHit(_ request: ServiceRequest) -> ServiceResponse? {
        let isHead: Bool
        switch request.method {
        case "GET": isHead = false
        case "HEAD": isHead = true
        default: return nil
        }
        guard request.cachePolicy == .useProtocolCachePolicy, request.body.isEmpty, HitRequest.isPlain(request.fields),
              let slot = hitSlot(for: request.target) else { return nil }
        let route = slot.route
        let runtime = route.runtime
        let storeKey: String
        if let known = slot.storeKey, slot.generation == runtime.generation {
            storeKey = known
        } else {
            let (keys, generation) = runtime.storeKeysWithGeneration(group: route.groupKey)
            hitRoutes.remember(storeKey: keys.count == 1 ? keys[0] : nil, generation: generation, for: request.target)
            guard keys.count == 1 else { return nil }
            storeKey = keys[0]
        }
        let time = now
        guard let entry = runtime.entry(for: storeKey), entry.metadata.expiresAt > time,
              let hit = HitEntry.of(entry)?.hit else { return nil }
        let prepared = hit.prepared(for: route.preparedKey) {
            PreparedHit(hit.decoded.response, head: hit.decoded.head, body: entry.body, context: route.context)
        }
        guard prepared.isServable else { return nil }
        let age = hit.decoded.response.currentAge(now: Int64(time))
        guard age < prepared.freshLimit else { return nil }
        runtime.counters.bump(.hits)
        return prepared.response(age: age, body: entry.body, isHead: isHead, outcome: route.outcome)
    }

    /// The cached admission of `target` for a plain request, resolving and caching it on first use;
    /// `nil` for targets the router refuses and for tiers that require a bearer token.
    func hitSlot(for target: String) -> HitRouteCache.Slot? {
        if let known = hitRoutes.slot(for: target) { return known }
        guard let match = try? router.resolve(target, configuration: configuration.targetLimits),
              let route = policies.route(named: match.route.name), let runtime = runtimes[route.tier],
              runtime.tier.credentials != .bearerRequired else { return nil }
        let hitRoute = HitRoute(route: route, runtime: runtime, upstreamURL: match.upstreamURL,
                                isVersioned: runtime.tier.isVersioned(query: match.query))
        hitRoutes.insert(hitRoute, for: target)
        return HitRouteCache.Slot(route: hitRoute, storeKey: nil, generation: -1)
    }
}
