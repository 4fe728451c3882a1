import HTTPCaching
import MediaCore
import MediaCrypto

// The request entry points: the async answer, the synchronous one (HTTPServer's handleSync) and the refusal from the head alone.
extension MediaService {
    /// Answers one request. Never throws: every failure is a problem+json response (RFC 9457).
    /// A `HEAD` answer has an empty body; its fields (`Content-Length` included) are those of `GET`.
    public func handle(_ request: ServiceRequest) async -> ServiceResponse {
        var resolved: RouteMatch?
        var partition: String?
        if let hit = hitPath.answer(request, resolved: &resolved, partition: &partition) { return finished(hit, request) }
        let context: RequestContext
        switch admit(request, resolved: resolved, knownPartition: partition) {
        case .success(let admitted): context = admitted
        case .failure(let refusal): return finished(refusal.response.withoutBody(for: request.method), request)
        }
        return await answer(request, admitted: context)
    }

    /// Continues a request the synchronous path admitted (``handleIfCached(_:admitted:)`` gave an ``AdmittedRequest``):
    /// the same answer ``handle(_:)`` gives it, without routing, admitting or keying it again.
    /// - Parameter interimResponses: where interim responses of its origin exchange go (``ServiceRequest/interimResponses``).
    public func handle(_ admitted: AdmittedRequest, interimResponses: OriginInterimResponse.Handler? = nil) async
        -> ServiceResponse
    {
        var request = admitted.request
        var context = admitted.context
        if let interimResponses {
            request.interimResponses = interimResponses
            context.interim = Admission.interimForwarder(for: request, tier: context.tier)
        }
        return await answer(request, admitted: context, decided: admitted.decided)
    }

    /// The answer to an admitted request: a pass-through exchange, or the cache's (RFC 9111).
    /// - Parameter decided: the synchronous path's lookup and decision, when it made them.
    private func answer(_ request: ServiceRequest, admitted context: RequestContext, decided: DecidedLookup? = nil) async
        -> ServiceResponse
    {
        if context.method != .get && context.method != .head {
            return finished(await forwarding.passThrough(context, body: request.body), request, context)
        }
        return finished(await cacheLookup.serve(context, decided: decided).response.withoutBody(for: request.method), request,
                        context)
    }

    /// The answer a request gets from its head alone, before its body is read (docs/http-server.md, "Bodies nobody
    /// reads"), or `nil` when its body is wanted. `request` has the head's fields and no body. A refusal is the one
    /// ``handle(_:)`` would give: `404 no-route`, `405 method-not-allowed`, `400 body-not-allowed` (a GET or HEAD
    /// with a body), `401` for a missing credential or signature, a CORS preflight. Only a method other than GET
    /// and HEAD on a `"methods": "all"` route that admits it reads its body.
    public func refusalBeforeBody(_ request: ServiceRequest) -> ServiceResponse? {
        switch admit(request) {
        case .success: return nil
        case .failure(let refusal): return finished(refusal.response.withoutBody(for: request.method), request)
        }
    }

    /// The synchronous fast path for `HTTPServer`'s `handleSync`: answers fresh hits held in memory,
    /// and refusals without suspending and without reading a file; returns `nil`
    /// when the request needs the origin, or a stored response that is only in a file (a disk or
    /// sealed entry without its hot copy): then call ``handle(_:)``, which reads it off the caller's
    /// thread and keeps a hot copy, so the next request is answered here.
    public func handleIfCached(_ request: ServiceRequest) -> ServiceResponse? {
        var admitted: AdmittedRequest?
        return handleIfCached(request, admitted: &admitted)
    }

    /// ``handleIfCached(_:)`` that hands on what it learned: when it returns `nil` for a request it admitted,
    /// `admitted` is that admission, for ``handle(_:interimResponses:)`` to continue without admitting the request
    /// again (`HTTPServer`'s handoff). An answer is returned as is (no wrapper to copy it out of: this is the hit path).
    public func handleIfCached(_ request: ServiceRequest, admitted: inout AdmittedRequest?) -> ServiceResponse? {
        var resolved: RouteMatch?
        var partition: String?
        if let hit = hitPath.answer(request, resolved: &resolved, partition: &partition, readsFiles: false) {
            return finished(hit, request)
        }
        return cachedAnswerByFullPath(request, resolved: resolved, knownPartition: partition, readsFiles: false,
                                      admitted: &admitted)
    }

    /// ``handleIfCached(_:)`` without the memory-hit fast path: admission, the RFC 9111 decision over
    /// every stored response of the group, and ``Responder``. Tests compare both paths with it.
    /// - Parameters:
    ///   - resolved: the router's match for the target, when the caller has it.
    ///   - readsFiles: whether entries only in files may be read (`false`: `nil` instead).
    ///   - admitted: set to the request's admission when there is no answer (see ``handleIfCached(_:admitted:)``).
    func cachedAnswerByFullPath(_ request: ServiceRequest, resolved: RouteMatch?, knownPartition: String? = nil,
                                readsFiles: Bool, admitted: inout AdmittedRequest?) -> ServiceResponse? {
        let context: RequestContext
        switch admit(request, resolved: resolved, knownPartition: knownPartition) {
        case .success(let made): context = made
        case .failure(let refusal): return finished(refusal.response.withoutBody(for: request.method), request)
        }
        switch cacheLookup.cachedAnswer(context, readsFiles: readsFiles) {
        case .answer(let response):
            return finished(response, request, context)
        case .pending(let decided):
            admitted = AdmittedRequest(request: request, context: context, decided: decided)
            return nil
        }
    }

    /// ``Responder/finished(_:_:_:cors:now:)`` under the snapshot in force.
    func finished(_ response: consuming ServiceResponse, _ request: ServiceRequest, _ context: RequestContext? = nil)
        -> ServiceResponse {
        Responder.finished(response, request, context, cors: hitRoutes.snapshot.cors, now: now)
    }

    /// Admission (``Admission``) under the policy snapshot and purge epoch in force now, read once here.
    func admit(_ request: ServiceRequest, resolved: RouteMatch? = nil, knownPartition: String? = nil)
        -> Result<RequestContext, Admission.Refusal>
    {
        // The epoch first: a reload swaps the snapshot before it bumps the epoch, so a request that reads the
        // new epoch also reads the new snapshot, and one that reads the old epoch stores nothing.
        let epoch = purgeEpoch.current
        return Admission(snapshot: hitRoutes.snapshot, epoch: epoch, clock: configuration.clock,
                         limits: configuration.targetLimits, keys: keys)
            .admit(request, resolved: resolved, knownPartition: knownPartition)
    }

    /// Hex HMAC-SHA256 (64 lower-case digits) of a request path for the access log of a partitioned or
    /// private tier, under the same per-process key as ``digest(_:)`` with the input
    /// `"mediactl-access-log-path-v1\n" + path` (domain-separated): equal paths give equal digests within
    /// one process, and digests cannot be linked across restarts. `"destroyed"` after ``stop()``.
    public func accessLogPathDigest(_ path: String) -> String {
        keys.digest("mediactl-access-log-path-v1\n" + path)
    }
}
