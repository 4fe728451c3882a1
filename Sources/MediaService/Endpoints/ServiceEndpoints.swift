import HTTPCaching
import MediaAudit
import MediaCore

#if canImport(Glibc)
    import Glibc
#endif

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
    /// The state directory whose file system's free space readiness checks.
    var stateDirectory: String = "."
    /// Free bytes below which readiness fails (``MediaService/Configuration/readinessMinimumFreeBytes``).
    var minimumFreeBytes: Int64 = 0
    /// Why the last policy reload failed, while none succeeded since.
    var reloadFailure: String? = nil

    /// The answer to `request`: `404 no-route` for an unknown path, whatever the method; `405` (with `Allow`) to a
    /// method a known path does not answer (`GET` and `HEAD` for health, readiness and metrics; `POST` for
    /// `/_mediactl/purge`, which the admin listener's purge endpoint answers).
    func answer(_ request: ServiceRequest) -> ServiceResponse {
        let path = request.target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? request.target
        let answersReads: Bool
        switch path {
        case "/_mediactl/health", "/_mediactl/ready", "/_mediactl/metrics": answersReads = true
        case "/_mediactl/purge": answersReads = false
        default: return Responder.problem(404, code: "no-route", detail: "no endpoint at \(path)", outcome: ServiceOutcome())
        }
        guard answersReads, request.method.isRead else {
            var response = Responder.problem(405, code: "method-not-allowed",
                                             detail: "\(path) answers \(answersReads ? "GET and HEAD" : "POST") only",
                                             outcome: ServiceOutcome())
            response.fields.set(.allow, answersReads ? "GET, HEAD" : "POST")
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
    /// Three checks, each `ok` or `failing` in the answer's `audit`, `diskSpace` and `policies` members:
    /// - `audit`: the audit log is written (while it cannot be, responses are served but not stored);
    /// - `diskSpace`: the state directory's file system has at least ``minimumFreeBytes`` free;
    /// - `policies`: the last policy reload did not fail (else the set in force is not what the files say).
    ///
    /// - `200` `application/json` `{"audit":"ok","diskSpace":"ok","policies":"ok","status":"ready"}` when all pass.
    /// - `503` problem+json with the three members, its `code` the first failing check's (`audit-unavailable`, with
    ///   `Retry-After` = the seconds until the next retry; `disk-space-low`; `policy-reload-failed`) and its `detail`
    ///   every failing check's reason, joined with `; `.
    /// - `503` problem+json `stopping` once ``stop()`` has begun.
    ///
    /// Every answer has `Cache-Control: no-store`; `HEAD` has the same fields and no body.
    func readiness(_ request: ServiceRequest) -> ServiceResponse {
        if isStopping {
            return Responder.problem(503, code: "stopping", detail: "the service is stopping", outcome: ServiceOutcome())
                .withoutBody(for: request.method)
        }
        var failing: [(check: String, code: String, detail: String)] = []
        var retryAfter: Int?
        if let outage = auditOutage {
            let wait = Self.retryAfterSeconds(until: outage.nextRetry, now: now)
            retryAfter = wait
            failing.append(("audit", ReasonCode.auditUnavailable.rawValue,
                            "the audit log cannot be written since \(outage.since) (\(outage.shortCause)): responses are "
                                + "served but not stored; next retry in \(wait) s"))
        }
        if let free = Self.freeBytes(at: stateDirectory), free < minimumFreeBytes {
            failing.append(("diskSpace", "disk-space-low",
                            "the state directory's file system has \(ByteSize(Int(free)).text) free, under the readiness "
                                + "threshold of \(ByteSize(Int(minimumFreeBytes)).text)"))
        }
        if let reloadFailure {
            failing.append(("policies", "policy-reload-failed",
                            "the last policy reload failed (\(reloadFailure)): the set in force, sha256 \(snapshot.digest), "
                                + "is not the one in the files"))
        }
        var members: [(key: String, json: [UInt8])] = ["audit", "diskSpace", "policies"].map { check in
            (check, Array((failing.contains { $0.check == check } ? "\"failing\"" : "\"ok\"").utf8))
        }
        var fields = HTTPFields()
        fields.append(.cacheControl, "no-store")
        fields.append(.xContentTypeOptions, "nosniff")
        let status: HTTPStatus
        if let first = failing.first {
            // RFC 9457 §3.2: the checks are extension members of the problem.
            let problem = ProblemDetails(status: 503, code: first.code, detail: failing.map(\.detail).joined(separator: "; "))
            func string(_ text: String) -> [UInt8] {
                var out: [UInt8] = []
                JSONString.append(text, to: &out, escapingSlashes: false)
                return out
            }
            members += [("code", string(problem.code)), ("detail", string(problem.detail)),
                        ("status", Array(String(problem.status.code).utf8)), ("title", string(problem.title)),
                        ("type", string(problem.type))]
            status = 503
            fields.append(.contentType, "application/problem+json")
            if first.check == "audit", let retryAfter { fields.append(.retryAfter, String(retryAfter)) }
        } else {
            members.append(("status", Array("\"ready\"".utf8)))
            status = 200
            fields.append(.contentType, "application/json")
        }
        var body = Array("{".utf8)
        for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body += Array("\"\(member.key)\":".utf8) + member.json
        }
        body += Array(status == 200 ? "}\n".utf8 : "}".utf8)
        fields.append(.contentLength, String(body.count))
        return ServiceResponse(status: status, fields: fields, body: body,
                               outcome: ServiceOutcome(reason: failing.first?.code))
            .withoutBody(for: request.method)
    }

    /// Free bytes available to the service on the file system of `path` (`statvfs`: `f_bavail × f_frsize`), or `nil`
    /// when it cannot be read.
    static func freeBytes(at path: String) -> Int64? {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }

    /// Whole seconds from `now` (seconds since the epoch) to `retry`, rounded up, at least 1.
    static func retryAfterSeconds(until retry: AuditTime, now: Double) -> Int {
        let milliseconds = retry.millisecondsSinceEpoch - Int64((now * 1000).rounded(.down))
        return max(1, Int((milliseconds + 999) / 1000))
    }
}
