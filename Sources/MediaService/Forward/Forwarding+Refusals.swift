import HTTPCaching
import MediaCore
import MediaPolicy

extension Forwarding {
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
        outcome.storage = .notStored
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
        outcome.storage = .notStored
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
