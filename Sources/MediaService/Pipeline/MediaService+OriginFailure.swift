import MediaPolicy

extension MediaService {
    /// The problem answered for an origin exchange that threw `error` (504 for `timeout`, else 502):
    /// code `origin-<error code>`, and a detail carrying the transport's own reason
    /// (``OriginError/context``, which never holds a URL, credential or body byte):
    /// - `timeout`: `the origin timed out: <context> (the tier's originTimeout is <n> s)` (an idle
    ///   stall and the whole-answer limit read differently);
    /// - otherwise: `the origin exchange failed: <context>` (cannot connect, closed mid-body, TLS…).
    static func originFailureProblem(_ error: OriginError, tier: Tier, outcome: ServiceOutcome) -> ServiceResponse {
        let detail = error.code == .timeout
            ? "the origin timed out: \(error.context) (the tier's originTimeout is \(seconds(tier.originTimeout)) s)"
            : "the origin exchange failed: \(error.context)"
        return Responder.problem(error.httpStatus, code: "origin-" + error.code.description, detail: detail, outcome: outcome)
    }
}
