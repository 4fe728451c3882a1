import MediaAudit

extension MediaService {
    /// What the `/_mediactl/` endpoints answer from now: the snapshot, stop state, audit outage and clock in force.
    /// Health and metrics read the one snapshot.
    var endpoints: ServiceEndpoints {
        let snapshot = hitRoutes.snapshot
        return ServiceEndpoints(snapshot: snapshot, isStopping: isStopped.load(ordering: .relaxed),
                                auditOutage: auditOutage, now: now, metrics: metrics(of: snapshot),
                                stateDirectory: configuration.stateDirectory,
                                minimumFreeBytes: configuration.readinessMinimumFreeBytes,
                                reloadFailure: reloadCounts.lastFailure)
    }

    /// The metrics of `snapshot` (``ServiceMetrics``), the one in force by default.
    func metrics(of snapshot: PolicySnapshot? = nil) -> ServiceMetrics {
        ServiceMetrics(snapshot: snapshot ?? hitRoutes.snapshot, reloads: reloadCounts.values, auditor: auditor,
                       requests: requestMetrics, originFetches: originFetchTimes)
    }

    /// The Prometheus text of the metrics in force.
    var metricsText: String { metrics().text }

    /// `/_mediactl/health`, `/_mediactl/ready` and `/_mediactl/metrics` (``ServiceEndpoints``).
    func internalEndpoint(_ request: ServiceRequest) -> ServiceResponse {
        endpoints.answer(request)
    }
}
