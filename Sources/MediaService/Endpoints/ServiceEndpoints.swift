import HTTPCaching
import MediaAudit
import MediaCore

/// The service's own endpoints under `/_mediactl/`, answered without an origin: `GET /_mediactl/health` (JSON,
/// liveness), `GET /_mediactl/ready` (readiness, ``readiness(_:)``) and `GET /_mediactl/metrics` (``ServiceMetrics``).
/// Built per request from what is in force (``MediaService/endpoints``); every answer has `Cache-Control: no-store`.
struct ServiceEndpoints {
    var snapshot: PolicySnapshot
    /// Whether ``MediaService/stop()`` has begun.
    var isStopping: Bool
    /// The audit log's outage, while it cannot be written.
    var auditOutage: AuditOutage?
    /// Seconds since the epoch (the service's clock).
    var now: Double
    var metrics: ServiceMetrics

    /// The answer to `request`: `405` (with `Allow`) to a method other than `GET` and `HEAD`, `404 no-route` for an
    /// unknown path.
    func answer(_ request: ServiceRequest) -> ServiceResponse {
        let path = request.target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? request.target
        guard request.method.isRead else {
            let isPurge = path == "/_mediactl/purge"
            let allowed = isPurge ? "POST" : "GET, HEAD"
            var response = Responder.problem(405, code: "method-not-allowed",
                                             detail: "\(path) answers \(isPurge ? "POST" : "GET and HEAD") only",
                                             outcome: ServiceOutcome())
            response.fields.set(.allow, allowed)
            return response
        }
        let body: [UInt8]
        let contentType: String
        switch path {
        case "/_mediactl/health":
            body = Array(healthJSON.utf8)
            contentType = "application/json"
        case "/_mediactl/ready":
            return readiness(request)
        case "/_mediactl/metrics":
            body = Array(metrics.text.utf8)
            contentType = "text/plain; version=0.0.4; charset=utf-8"
        default:
            return Responder.problem(404, code: "no-route", detail: "no endpoint at \(path)", outcome: ServiceOutcome())
        }
        var fields = HTTPFields()
        fields.append(.contentType, contentType)
        fields.append(.contentLength, String(body.count))
        fields.append(.cacheControl, "no-store")
        fields.append(.xContentTypeOptions, "nosniff")
        return ServiceResponse(status: 200, fields: fields, body: request.method == .head ? [] : body,
                               outcome: ServiceOutcome())
    }

    /// `{"routes":[…],"status":"ok","tiers":["avatar",…]}`; `status` is `stopping` once the service stops.
    var healthJSON: String {
        let tiers = snapshot.runtimes.keys.sorted().map { "\"\($0)\"" }.joined(separator: ",")
        let routes = snapshot.policies.routes.map { "\"\($0.name)\"" }.joined(separator: ",")
        let status = isStopping ? "stopping" : "ok"
        return "{\"routes\":[\(routes)],\"status\":\"\(status)\",\"tiers\":[\(tiers)]}\n"
    }

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
        if isStopping {
            return Responder.problem(503, code: "stopping", detail: "the service is stopping", outcome: ServiceOutcome())
                .withoutBody(for: request.method)
        }
        if let outage = auditOutage {
            let wait = MediaService.retryAfterSeconds(until: outage.nextRetry, now: now)
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
}
