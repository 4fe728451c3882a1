import HTTPCaching
import MediaCore
import MediaCrypto

extension MediaService {
    /// Admission (``Admission``) under the policy snapshot and purge epoch in force now, read once here.
    func admit(_ request: ServiceRequest, resolved: RouteMatch? = nil) -> Result<RequestContext, Admission.Refusal> {
        // The epoch first: a reload swaps the snapshot before it bumps the epoch, so a request that reads the
        // new epoch also reads the new snapshot, and one that reads the old epoch stores nothing.
        let epoch = purgeEpoch.current
        return Admission(snapshot: hitRoutes.snapshot, epoch: epoch, clock: configuration.clock,
                         limits: configuration.targetLimits, keys: keys).admit(request, resolved: resolved)
    }

    /// Hex HMAC-SHA256 (64 lower-case digits) of a request path for the access log of a partitioned or
    /// private tier, under the same per-process key as ``digest(_:)`` with the input
    /// `"mediactl-access-log-path-v1\n" + path` (domain-separated): equal paths give equal digests within
    /// one process, and digests cannot be linked across restarts. `"destroyed"` after ``stop()``.
    public func accessLogPathDigest(_ path: String) -> String {
        keys.digest("mediactl-access-log-path-v1\n" + path)
    }
}
