import HTTPCaching
import MediaCore
import MediaPolicy

extension Forwarding {
    /// One exchange with the origin (``OriginExchange``), then what its answer gets: a 304 merged into the stored
    /// responses, a refusal audited, a response decided on, stored and audited (``commit.decideAndStore(_:response:fields:image:requestTime:responseTime:reason:servedETag:)``).
    ///
    /// A 5xx answer is an origin failure on image tiers (a `502` problem, or a stale response where
    /// `stale-if-error` allows). On a generic tier it is the origin's answer, passed through with its own
    /// status, fields and body and stored when RFC 9111 allows (explicit freshness, §3), unless
    /// `staleOnError` says a stored response will be served instead (RFC 5861 §4).
    func exchange(_ context: RequestContext, candidates: [Candidate], conditional: HTTPFields?,
                  reason: CacheStatus.Forward, staleOnError: Bool = false) async -> Exchange {
        let fields = originFields(context, conditional: conditional)
        let (answer, requestTime, responseTime) = await OriginExchange(fetcher: fetcher, clock: clock, fetchTimes: fetchTimes)
            .run(context, fields: fields, conditional: conditional, staleOnError: staleOnError)
        switch answer {
        case .failed(let status, let problem):
            return Exchange(result: .originFailed(status: status, response: problem), shareable: true)
        case .refused(let refusal):
            let problem = refusalProblem(context, status: refusal.status, code: refusal.code, detail: refusal.detail)
            return commit.storeNegative(context, key: Tier.refusedErrorKey, problem: problem, origin: refusal.fields,
                                             originStatus: refusal.originStatus, fields: fields, requestTime: requestTime, responseTime: responseTime,
                                             reason: reason)
                ?? refuse(context, status: refusal.status, code: refusal.code, detail: refusal.detail)
        case .statusRefused(let status, let originFields):
            if let key = Tier.errorTTLKey(status: status),
               let stored = commit.storeNegative(context, key: key, problem: originStatusProblem(context, status: status),
                                                      origin: originFields, originStatus: status, fields: fields,
                                                      requestTime: requestTime,
                                                      responseTime: responseTime, reason: reason) {
                return stored
            }
            return refuseOriginStatus(context, status: status)
        case .notModified(let response):
            if let merged = notModified(context, candidates: candidates, response: response, conditional: conditional,
                                        requestTime: requestTime, responseTime: responseTime, reason: reason) {
                return merged
            }
            // The 304 selects no stored response: the representation is fetched again, without conditions.
            return await exchange(context, candidates: candidates, conditional: nil, reason: reason)
        case .fetched(let fetched):
            var exchange = commit.decideAndStore(context, response: fetched.served, fields: fields, image: fetched.image,
                                          requestTime: requestTime, responseTime: responseTime, reason: reason,
                                          servedETag: fetched.servedETag)
            if context.isGeneric, (500...599).contains(fetched.received.status), !exchange.shareable,
               Self.mayShareUnstored(fetched.received.fields) {
                // A passed-through server error that was not stored still answers every waiter of the flight: a
                // failing origin sees one request per burst, not one per client (never an answer that sets a cookie
                // or is `private` / `no-store`: that one belongs to its requester).
                exchange.shareable = true
            }
            return exchange
        }
    }

    /// Whether an unstored answer may go to coalesced waiters: no `Set-Cookie`, no `private`, no `no-store`.
    static func mayShareUnstored(_ fields: HTTPFields) -> Bool {
        let cc = CacheControl(fields: fields)
        return !fields.contains(.setCookie) && !cc.isPrivate && !cc.noStore
    }

    /// A refusal before storage: audited `skip` with the reason, answered with a problem.
    func refuse(_ context: RequestContext, status: HTTPStatus, code: String, detail: String) -> Exchange {
        let storeKey = CacheKey.store(group: context.groupKey, secondary: .empty)
        try? commit.auditor.record(.skip, context.subject(storeKey: storeKey), storage: .none, reason: code, bytes: nil, ttl: nil)
        context.runtime.counters.bump(.refused)
        return Exchange(result: .refused(refusalProblem(context, status: status, code: code, detail: detail)),
                        shareable: true)
    }

    /// The problem answered for a refusal before storage (its stable `code` and `detail`).
    func refusalProblem(_ context: RequestContext, status: HTTPStatus, code: String, detail: String) -> ServiceResponse {
        var outcome = context.outcome
        outcome.storage = "none"
        return Responder.problem(status, code: code, detail: detail, outcome: outcome)
    }

    /// An origin answer other than 200 on an image tier: never stored; 4xx statuses pass on as problems.
    func refuseOriginStatus(_ context: RequestContext, status: HTTPStatus) -> Exchange {
        let storeKey = CacheKey.store(group: context.groupKey, secondary: .empty)
        try? commit.auditor.record(.skip, context.subject(storeKey: storeKey), storage: .none, reason: "status-not-storable",
                            bytes: nil, ttl: nil)
        context.runtime.counters.bump(.skipped)
        // An answer to one credential is never handed to another caller.
        return Exchange(result: .refused(originStatusProblem(context, status: status)), shareable: false)
    }

    /// The problem answered for an origin status other than 200 on an image tier: a 3xx is `redirect-refused` (502),
    /// a 4xx passes on with its status (`origin-status-404`; a 401 with `WWW-Authenticate: Bearer`), a 5xx is 502.
    func originStatusProblem(_ context: RequestContext, status: HTTPStatus) -> ServiceResponse {
        var outcome = context.outcome
        outcome.storage = "none"
        outcome.reason = "status-not-storable"
        let response: ServiceResponse
        switch status {
        case 300...399:
            response = Responder.problem(502, code: "redirect-refused",
                                         detail: "the origin answered \(status); redirects are never followed", outcome: outcome)
        case 400...499:
            var problem = Responder.problem(status, code: "origin-status-\(status)", detail: "the origin answered \(status)",
                                            outcome: outcome)
            if status == 401 { problem.fields.set(.wwwAuthenticate, "Bearer") }
            response = problem
        default:
            response = Responder.problem(502, code: "origin-status-\(status)",
                                         detail: "the origin answered \(status) where an image was expected", outcome: outcome)
        }
        return response
    }
}
