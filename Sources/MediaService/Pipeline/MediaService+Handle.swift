import HTTPCaching

extension MediaService {
    /// Answers one request. Never throws: every failure is a problem+json response (RFC 9457).
    /// A `HEAD` answer has an empty body; its fields (`Content-Length` included) are those of `GET`.
    public func handle(_ request: ServiceRequest) async -> ServiceResponse {
        if request.target.hasPrefix("/_mediactl/") { return internalEndpoint(request) }
        var resolved: RouteMatch?
        if let hit = fastHit(request, resolved: &resolved) { return finished(hit, request) }
        let context: RequestContext
        switch admit(request, resolved: resolved) {
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
        return finished(await serving.serve(context, decided: decided).response.withoutBody(for: request.method), request,
                        context)
    }

    /// The answer a request gets from its head alone, before its body is read (docs/http-server.md, "Bodies nobody
    /// reads"), or `nil` when its body is wanted. `request` has the head's fields and no body. A refusal is the one
    /// ``handle(_:)`` would give: `404 no-route`, `405 method-not-allowed`, `400 body-not-allowed` (a GET or HEAD
    /// with a body), `401` for a missing credential or signature, a CORS preflight. Only a method other than GET
    /// and HEAD on a `"methods": "all"` route that admits it reads its body.
    public func refusalBeforeBody(_ request: ServiceRequest) -> ServiceResponse? {
        if request.target.hasPrefix("/_mediactl/") { return internalEndpoint(request) }
        switch admit(request) {
        case .success: return nil
        case .failure(let refusal): return finished(refusal.response.withoutBody(for: request.method), request)
        }
    }
}
