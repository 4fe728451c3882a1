import MediaPolicy
import MediaTransform

extension PolicySnapshot {
    /// Refuses `policies` when a tier declares `variants` and libvips cannot be used here (``MediaTransform/VipsRuntime``
    /// opens it then, on start or reload, rather than on the first variant request); nothing when no tier does.
    /// - Parameter unavailable: why libvips cannot be used, or `nil` (``MediaTransform/VipsRuntime/unavailable``).
    /// - Throws: `ServiceError` `invalid-policy`: `tier "<name>" declares variants, but <reason>`.
    static func requireImageEngine(for policies: PolicySet,
                                   unavailable: @autoclosure () -> String? = VipsRuntime.unavailable) throws(ServiceError) {
        guard let name = policies.tiers.keys.sorted().first(where: { policies.tiers[$0]?.variants != nil }),
              let problem = unavailable() else { return }
        throw ServiceError(.invalidPolicy, "tier \"\(name)\" declares variants, but \(problem)")
    }
}
