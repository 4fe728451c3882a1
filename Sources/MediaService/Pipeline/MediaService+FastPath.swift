import HTTPCaching

extension MediaService {
    /// The synchronous fast path for `HTTPServer`'s `handleSync`: answers fresh hits held in memory,
    /// refusals and internal endpoints without suspending and without reading a file; returns `nil`
    /// when the request needs the origin, or a stored response that is only in a file (a disk or
    /// sealed entry without its hot copy): then call ``handle(_:)``, which reads it off the caller's
    /// thread and keeps a hot copy, so the next request is answered here.
    public func handleIfCached(_ request: ServiceRequest) -> ServiceResponse? {
        if case .answered(let response) = answerIfCached(request) { return response }
        return nil
    }

    /// ``handleIfCached(_:)`` that hands on what it learned: a request it admitted but cannot answer here comes
    /// back as ``CachedAnswer/admitted(_:)``, for ``handle(_:interimResponses:)`` to continue without admitting
    /// it again (`HTTPServer`'s handoff).
    public func answerIfCached(_ request: ServiceRequest) -> CachedAnswer {
        if request.target.hasPrefix("/_mediactl/") { return .answered(internalEndpoint(request)) }
        var resolved: RouteMatch?
        if let hit = fastHit(request, resolved: &resolved, readsFiles: false) { return .answered(finished(hit, request)) }
        return fullPathAnswer(request, resolved: resolved, readsFiles: false)
    }

    /// ``handleIfCached(_:)`` without the memory-hit fast path: admission, the RFC 9111 decision over
    /// every stored response of the group, and ``Responder``. Tests compare both paths with it.
    /// - Parameters:
    ///   - resolved: the router's match for the target, when the caller has it.
    ///   - readsFiles: whether entries only in files may be read (`false`: `nil` instead).
    func cachedAnswerByFullPath(_ request: ServiceRequest, resolved: RouteMatch? = nil, readsFiles: Bool = true) -> ServiceResponse? {
        if case .answered(let response) = fullPathAnswer(request, resolved: resolved, readsFiles: readsFiles) { return response }
        return nil
    }

    /// ``cachedAnswerByFullPath(_:resolved:readsFiles:)``, with the admitted request when there is no answer.
    func fullPathAnswer(_ request: ServiceRequest, resolved: RouteMatch? = nil, readsFiles: Bool = true) -> CachedAnswer {
        if request.target.hasPrefix("/_mediactl/") { return .answered(internalEndpoint(request)) }
        let context: RequestContext
        switch admit(request, resolved: resolved) {
        case .success(let admitted): context = admitted
        case .failure(let refusal): return .answered(finished(refusal.response.withoutBody(for: request.method), request))
        }
        let admitted = CachedAnswer.admitted(AdmittedRequest(request: request, context: context))
        guard context.method == "GET" || context.method == "HEAD",
              context.cachePolicy != .reloadIgnoringLocalCacheData else { return admitted }
        let time = now
        // A variant is looked up under its own key (the context's URL is its source's).
        let lookup = context.variant.map { variantContext(context, $0) } ?? context
        guard let candidates = loadCandidates(lookup, now: time, readsFiles: readsFiles), !candidates.isEmpty else { return admitted }
        var decision = makeDecision(lookup, candidates: candidates, now: time)
        guard case .serveFresh(let index, _) = decision.lookup(now: Int64(time)) else { return admitted }
        context.runtime.counters.bump(.hits)
        let candidate = candidates[index]
        if let variant = context.variant {
            return .answered(finished(storedVariant(candidate, stored: lookup, selection: variant, now: time), request, context))
        }
        return .answered(finished(Responder.stored(candidate, context: context, now: Int64(time),
                                                   status: CacheStatus(hit: true, ttl: remaining(candidate, context: context, now: time)),
                                                   storage: "hit"), request, context))
    }
}
