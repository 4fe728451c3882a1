import HTTPCaching
import MediaSigning
import MediaStorage

/// The memory-hit fast path, the first stage of a `GET` or `HEAD` (docs/architecture.md): a plain request to a target
/// admitted once before, whose group holds one fresh stored response in memory, answered from that entry's prepared
/// fields without admission, lookup or decision. A bearer tier's request is too: its token is parsed and its
/// partition computed by the full path's own rules, and its own partition's entry answers it. Anything else is left
/// to the full path (``Admission``, then ``CacheLookup``), which gives the same answer.
///
/// A value over the policy snapshot with its admitted targets (``HitRouteCache``), the clock, the target limits and
/// the partition keys.
struct HitPath: Sendable {
    let routes: HitRouteCache
    let clock: @Sendable () -> Double
    let limits: RequestTarget.Configuration
    let keys: any RequestKeys

    /// The memory-hit fast path shared by ``MediaService/handle(_:)`` and ``MediaService/handleIfCached(_:)``: a plain `GET` or
    /// `HEAD` (``HitRequest/isPlain(_:)``, default cache policy, no body) to a target already admitted
    /// once, whose group holds one stored response that needs no decision input (``PreparedHit``) and
    /// is fresh, is answered from the entry's prepared fields. Returns `nil` whenever any of that does
    /// not hold; the full path then gives the answer (exactly the answer it would give anyway).
    /// - Parameters:
    ///   - resolved: set to the router's match when this call resolved the target (a target seen for
    ///     the first time), so the full path does not resolve it again.
    ///   - readsFiles: whether an entry that is only in a file (disk or sealed, no hot copy) may be
    ///     read; `false` on an event loop, where a file read would stall every connection of the loop.
    func answer(_ request: ServiceRequest, resolved: inout RouteMatch?, readsFiles: Bool = true) -> ServiceResponse? {
        var partition: String?
        return answer(request, resolved: &resolved, partition: &partition, readsFiles: readsFiles)
    }

    /// ``answer(_:resolved:readsFiles:)``, also setting `computed` to the partition of a bearer tier's request when
    /// this call computed it (a keyed digest of its token), so the full path does not compute it again.
    func answer(_ request: ServiceRequest, resolved: inout RouteMatch?, partition computed: inout String?,
                readsFiles: Bool = true) -> ServiceResponse? {
        let isHead: Bool
        switch request.method {
        case "GET": isHead = false
        case "HEAD": isHead = true
        default: return nil
        }
        guard request.cachePolicy == .useProtocolCachePolicy, request.body.isEmpty,
              let admitted = slot(for: request.target, resolved: &resolved) else { return nil }
        var authorization: HitRequest.Authorization = .none
        guard HitRequest.isPlain(request.fields, allowsAuthorization: admitted.slot.route.requiresBearer,
                                 authorization: &authorization) else { return nil }
        let slot = admitted.slot
        let route = slot.route
        let runtime = route.runtime
        var storeKey = slot.storeKey, generation = slot.generation
        var knownHit = slot.hit
        var texts = slot.texts, textsAge = slot.textsAge, textsLimit = slot.textsLimit
        var signedText = slot.signedText
        // A bearer tier's slot under the target keeps its route only: what a lookup learns belongs to one partition, and
        // is kept in the route's partition slots (found only with the partition, so only with its token).
        let partitionSlots = route.partitionSlots
        var partition: String?
        if let expires = route.signedExpires {
            // As Admission for a target it verified before: only the expiry can have changed.
            guard Double(expires) > clock() else { return nil }
            partition = route.signedPartition
        }
        var learned = admitted.isNew
        if let partitionSlots {
            // As Admission: no credential, several `Authorization` lines or a malformed credential are the full path's
            // 401 (and nothing is learned from them), a partition key that cannot be used (stopping) its 503.
            guard case .one(let value) = authorization else { return nil }
            if route.partitionsByCredential {
                // A credential seen recently is found by its value, neither parsed nor MACed again.
                guard let key = keys.partition(forAuthorization: value) else { return nil }
                partition = key
                computed = key
            } else {
                guard (try? BearerToken.parse(authorization: value)) != nil else { return nil }
            }
            if admitted.isNew { routes.keep(HitSlot(route: route), for: request.target, under: admitted.snapshot) }
            if let own = partitionSlots.slot(for: partition ?? "-") {
                storeKey = own.storeKey
                generation = own.generation
                knownHit = own.hit
                (texts, textsAge, textsLimit) = (own.texts, own.textsAge, own.textsLimit)
                learned = false
            } else {
                (storeKey, generation, knownHit, texts, textsAge, textsLimit) = (nil, -1, nil, nil, -1, -1)
                learned = true
            }
        }
        defer {
            if learned {
                let slot = HitSlot(route: route, storeKey: storeKey, generation: generation, hit: knownHit, texts: texts,
                                   textsAge: textsAge, textsLimit: textsLimit, signedText: signedText)
                if let partitionSlots {
                    partitionSlots.keep(slot, for: partition ?? "-")
                } else {
                    routes.keep(slot, for: request.target, under: admitted.snapshot)
                }
            }
        }
        if generation != runtime.generation {
            let groupKey = partitionSlots == nil ? route.groupKey : CacheKey.group(primary: route.primaryKey, partition: partition)
            let (keys, current) = runtime.storeKeysWithGeneration(group: groupKey)
            storeKey = keys.count == 1 ? keys[0] : nil
            generation = current
            learned = true
        }
        guard let storeKey,
              let entry = readsFiles ? runtime.entry(for: storeKey) : runtime.entryInMemory(for: storeKey) else { return nil }
        let time = clock()
        let metadata = entry.metadata
        guard metadata.expiresAt > time else { return nil }
        let hit: HitEntry
        if let knownHit, knownHit.isDecoded(from: metadata.head) {
            hit = knownHit
        } else {
            guard let made = HitEntry.of(entry)?.hit else { return nil }
            hit = made
            knownHit = made
            learned = true
        }
        // A response with a secondary key (RFC 9111 §4.1) answers only a request whose nominated fields match it, matched
        // as CacheLookup matches: against the fields the origin request would carry, sensitive ones (`Vary:
        // Authorization` on a private tier) by their keyed digests.
        let secondary = hit.decoded.response.secondaryKey
        if !secondary.entries.isEmpty {
            let snapshot = admitted.snapshot
            let fields = Admission.originFields(
                for: request, route: route.route, tier: runtime.tier, signature: route.signed?.signature,
                secrets: snapshot.secrets, hasCORS: snapshot.cors[route.routeName] != nil)
            guard Vary.matches(secondary, request: fields, digest: { keys.digest($0) }) else { return nil }
        }
        var preparedKey = route.preparedKey
        preparedKey.partition = partition
        preparedKey.signed = route.signedExpires != nil
        let prepared = hit.prepared(for: preparedKey) {
            PreparedHit(hit.decoded.response, head: hit.decoded.head, body: entry.body, context: route.context(partition: partition))
        }
        let body = entry.body
        guard prepared.isServable, body.count == prepared.bodyCount else { return nil }
        let age = hit.decoded.response.currentAge(now: Int64(time))
        guard age < prepared.freshLimit else { return nil }
        let answerTexts: (age: String, cacheStatus: String)
        if let texts, textsAge == age, textsLimit == prepared.freshLimit {
            answerTexts = texts
        } else {
            answerTexts = prepared.texts(age: age)
            texts = answerTexts
            textsAge = age
            textsLimit = prepared.freshLimit
            learned = true
        }
        runtime.counters.bump(.hits)
        // What Responder.finished adds to a signed answer (SignedAnswer.decorate), in the same order (before CORS), its
        // Cache-Control kept per second: written with the prepared lines when they hold its Referrer-Policy already.
        var signedValue: String?
        if let expires = route.signedExpires {
            runtime.counters.signed.countVerified()
            let remaining = SignedAnswer.remaining(expires: expires, now: time)
            let base = prepared.signedCacheControlIndex.map { prepared.fields.fields[$0].value }
            if let known = signedText, known.remaining == remaining, known.base == base, base != nil {
                signedValue = known.value
            } else if base != nil {
                signedValue = SignedAnswer.cacheControl(base, status: prepared.status, remaining: remaining)
                signedText = (remaining, base, signedValue)
                learned = true
            }
        }
        var response = prepared.response(texts: answerTexts, body: body, isHead: isHead, route: route,
                                         cacheControl: signedValue)
        if !isHead { response.content.owner = entry.owner }
        if let expires = route.signedExpires, prepared.signedCacheControlIndex == nil {
            SignedAnswer.decorate(&response, expires: expires, now: time)
        }
        return response
    }

    /// ``answer(_:resolved:readsFiles:)`` for callers without use for the router's match (tests).
    func answer(_ request: ServiceRequest) -> ServiceResponse? {
        var resolved: RouteMatch?
        return answer(request, resolved: &resolved)
    }

    /// The cached admission of `target` for a plain request, or a new one (`isNew`, not kept yet: the
    /// caller keeps it with what it learns) resolved by the router (then `resolved` is the router's
    /// match); `nil` for targets the router refuses, and on a tier that accepts signed URLs for a target whose signature
    /// the full path has not verified (``SignatureCache``). `snapshot`
    /// is the policy snapshot the slot belongs to (the one in force when it was looked up).
    func slot(for target: String, resolved: inout RouteMatch?)
        -> (slot: HitSlot, isNew: Bool, snapshot: PolicySnapshot)?
    {
        let (snapshot, known) = routes.lookup(target)
        if let known { return (known, false, snapshot) }
        guard var match = try? snapshot.router.resolve(target, configuration: limits) else { return nil }
        resolved = match
        // The router is this snapshot's: its match carries the policy's own route.
        let route = match.route
        guard let runtime = snapshot.runtimes[route.tier] else { return nil }
        var signed: SignatureCache.Entry?
        let claimsSignature = SignatureVerifier.parameters(ofSigned: Admission.rawQuery(of: target)) != nil
        if let signedURLs = runtime.tier.signedURLs {
            if let known = snapshot.signatures.entry(for: target), known.match.route == match.route {
                // Verified by Admission under this snapshot's keys, and keyed by its query without the signature.
                signed = known
                match = known.match
            } else if signedURLs.required || claimsSignature {
                // Not verified yet (or refused): the full path's.
                return nil
            }
            // Else an unsigned request where signatures are optional: answered as the tier's credentials say.
        } else if claimsSignature {
            // A query claiming a signature on a route that takes none is the full path's to refuse.
            return nil
        }
        // Keyed as Admission keys it (TargetKeying). A variant target hits its stored variant; one whose format
        // follows `Accept` (fmt=auto) or whose width follows client hints, or that is refused, takes the full path.
        guard case .success(let keying) = TargetKeying.key(match, runtime: runtime, accept: nil) else { return nil }
        match = keying.match
        var upstreamURL = keying.sourceURL
        if let selection = keying.variant {
            guard !selection.dependsOnRequestFields else { return nil }
            upstreamURL = CacheKey.variantPrimary(source: keying.sourceURL, keyText: selection.spec.keyText)
        }
        return (HitSlot(route: HitRoute(route: route, runtime: runtime, upstreamURL: upstreamURL,
                                        isVersioned: runtime.tier.isVersioned(query: match.query), signed: signed)),
                true, snapshot)
    }
}
