import MediaAudit

extension MediaService {
    /// What the `/_mediactl/` endpoints answer from now: the snapshot, stop state, audit outage and clock in force.
    var endpoints: ServiceEndpoints {
        ServiceEndpoints(snapshot: hitRoutes.snapshot, isStopping: isStopped.load(ordering: .relaxed),
                         auditOutage: auditOutage, now: now, metrics: metrics)
    }

    /// The metrics of what is in force (``ServiceMetrics``).
    var metrics: ServiceMetrics {
        ServiceMetrics(snapshot: hitRoutes.snapshot, reloads: reloadCounts.values, auditor: auditor)
    }

    /// The Prometheus text of ``metrics``.
    var metricsText: String { metrics.text }

    /// `/_mediactl/health`, `/_mediactl/ready` and `/_mediactl/metrics` (``ServiceEndpoints``).
    func internalEndpoint(_ request: ServiceRequest) -> ServiceResponse {
        endpoints.answer(request)
    }

    /// Whole seconds from `now` (seconds since the epoch) to `retry`, rounded up, at least 1.
    static func retryAfterSeconds(until retry: AuditTime, now: Double) -> Int {
        let milliseconds = retry.millisecondsSinceEpoch - Int64((now * 1000).rounded(.down))
        return max(1, Int((milliseconds + 999) / 1000))
    }
}
