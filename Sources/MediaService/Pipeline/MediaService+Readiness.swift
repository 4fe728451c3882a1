import HTTPCaching
import MediaAudit
import MediaCore

extension MediaService {
    /// `GET`/`HEAD /_mediactl/ready`, the readiness probe (docs/operations.md, "Liveness and readiness"): whether
    /// this replica should get traffic. `/_mediactl/health` stays the liveness probe (200 while the process runs).
    ///
    /// - `200` `application/json` `{"audit":"ok","status":"ready"}` while the audit log is written.
    /// - `503` problem+json `audit-unavailable` while it cannot be (``auditOutage``: responses are served but not
    ///   stored), with `Retry-After` = the seconds until the next retry (at least 1), e.g. detail
    ///   `the audit log cannot be written since 2026-12-02T04:30:57.123Z (EPERM (1)): responses are served but not
    ///   stored; next retry in 4 s`.
    /// - `503` problem+json `stopping` once ``stop()`` has begun.
    ///
    /// Every answer has `Cache-Control: no-store`; `HEAD` has the same fields and no body.
    func readiness(_ request: ServiceRequest) -> ServiceResponse {
        if isStopped.load(ordering: .relaxed) {
            return Responder.problem(503, code: "stopping", detail: "the service is stopping", outcome: ServiceOutcome())
                .withoutBody(for: request.method)
        }
        if let outage = auditOutage {
            let wait = Self.retryAfterSeconds(until: outage.nextRetry, now: now)
            var response = Responder.problem(
                503, code: ReasonCode.auditUnavailable.rawValue,
                detail: "the audit log cannot be written since \(outage.since) (\(outage.shortCause)): responses are "
                    + "served but not stored; next retry in \(wait) s",
                outcome: ServiceOutcome())
            response.fields.set(.retryAfter, String(wait))
            return response.withoutBody(for: request.method)
        }
        let body = Array("{\"audit\":\"ok\",\"status\":\"ready\"}\n".utf8)
        var fields = HTTPFields()
        fields.append(.contentType, "application/json")
        fields.append(.contentLength, String(body.count))
        fields.append(.cacheControl, "no-store")
        fields.append(.xContentTypeOptions, "nosniff")
        return ServiceResponse(status: 200, fields: fields, body: body, outcome: ServiceOutcome())
            .withoutBody(for: request.method)
    }

    /// Whole seconds from `now` (seconds since the epoch) to `retry`, rounded up, at least 1.
    static func retryAfterSeconds(until retry: AuditTime, now: Double) -> Int {
        let milliseconds = retry.millisecondsSinceEpoch - Int64((now * 1000).rounded(.down))
        return max(1, Int((milliseconds + 999) / 1000))
    }
}
