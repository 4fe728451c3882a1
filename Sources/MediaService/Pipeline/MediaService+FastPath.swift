import HTTPCaching

extension MediaService {
    /// The synchronous fast path for `HTTPServer`'s `handleSync`: answers fresh hits held in memory,
    /// refusals and internal endpoints without suspending and without reading a file; returns `nil`
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
        if request.target.hasPrefix("/_mediactl/") { return internalEndpoint(request) }
        var resolved: RouteMatch?
        if let hit = fastHit(request, resolved: &resolved, readsFiles: false) { return finished(hit, request) }
        return cachedAnswerByFullPath(request, resolved: resolved, readsFiles: false, admitted: &admitted)
    }

    /// ``handleIfCached(_:)`` without the memory-hit fast path: admission, the RFC 9111 decision over
    /// every stored response of the group, and ``Responder``. Tests compare both paths with it.
    /// - Parameters:
    ///   - resolved: the router's match for the target, when the caller has it.
    ///   - readsFiles: whether entries only in files may be read (`false`: `nil` instead).
    ///   - admitted: set to the request's admission when there is no answer (see ``handleIfCached(_:admitted:)``).
    func cachedAnswerByFullPath(_ request: ServiceRequest, resolved: RouteMatch? = nil, readsFiles: Bool = true) -> ServiceResponse? {
        var admitted: AdmittedRequest?
        return cachedAnswerByFullPath(request, resolved: resolved, readsFiles: readsFiles, admitted: &admitted)
    }

    func cachedAnswerByFullPath(_ request: ServiceRequest, resolved: RouteMatch?, readsFiles: Bool,
                                admitted: inout AdmittedRequest?) -> ServiceResponse? {
        if request.target.hasPrefix("/_mediactl/") { return internalEndpoint(request) }
        let context: RequestContext
        switch admit(request, resolved: resolved) {
        case .success(let made): context = made
        case .failure(let refusal): return finished(refusal.response.withoutBody(for: request.method), request)
        }
        switch serving.cachedAnswer(context, readsFiles: readsFiles) {
        case .answer(let response):
            return finished(response, request, context)
        case .pending(let decided):
            admitted = AdmittedRequest(request: request, context: context, decided: decided)
            return nil
        }
    }
}
