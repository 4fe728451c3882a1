import MediaAudit
import MediaSigning
import MediaStorage
import Synchronization

/// What a purge removes (docs/cli.md, `mediactl purge`).
public enum PurgeScope: Sendable, Hashable {
    /// Every stored response of a route.
    case route(String)
    /// Every stored response of one credential's partition (logout).
    case credential(BearerToken)
    /// Every stored response of one signed-URL subject's partition (docs/signed-urls.md): 1–128 of `[A-Za-z0-9._-]`.
    case subject(String)
    /// Everything.
    case all
}

extension MediaService {
    /// Removes stored responses from memory and disk, audited as one `purge` batch (one record per
    /// removed entry, then a summary with the count). Other partitions, routes and tiers are untouched
    /// and the stores keep working.
    /// - Returns: the number of stored responses removed.
    /// - Throws: ``ServiceError`` `unknown-route`; `invalid-subject` for a subject that is not 1–128 of
    ///   `[A-Za-z0-9._-]`; `audit` when the batch cannot be recorded.
    @discardableResult
    public func purge(_ scope: PurgeScope) throws -> Int {
        let predicate: (EntryMetadata) -> Bool
        let reason: ReasonCode
        var routeName: String?
        var partition: String?
        switch scope {
        case .route(let name):
            guard policies.route(named: name) != nil else {
                throw ServiceError(.unknownRoute, "no route named \(name); routes: "
                                   + policies.routes.map(\.name).joined(separator: ", "))
            }
            routeName = name
            predicate = { $0.route == name }
            reason = .purgeRoute
        case .credential(let token):
            let hex = try keyer.partition(for: token).hex
            partition = hex
            predicate = { $0.partition == hex }
            reason = .purgeCredential
        case .subject(let subject):
            guard SignedURLParameters.isSubject(subject) else {
                throw ServiceError(.invalidSubject, "the subject is not 1 to 128 of A-Z a-z 0-9 . _ -")
            }
            guard let hex = try subjects().partition(forSubject: subject) else {
                throw ServiceError(.stopping, "the service is stopping")
            }
            partition = hex
            predicate = { $0.partition == hex }
            reason = .purgeSubject
        case .all:
            predicate = { _ in true }
            reason = .purgeAll
        }
        // Exclusive: no exchange stores between the epoch bump and the batch's record (StoreGate).
        let removed = try gate.exclusive { () throws -> [EntryMetadata] in
            purgeEpoch.bump()
            var removed: [EntryMetadata] = []
            let runtimes = self.runtimes
            for name in runtimes.keys.sorted() {
                let runtime = runtimes[name]!
                let gone = runtime.removeAll(where: predicate)
                runtime.counters.bump(.purged, by: gone.count)
                removed.append(contentsOf: gone)
            }
            do {
                try auditor.purge(removed, reason: reason, tier: nil, route: routeName, partition: partition)
            } catch {
                throw ServiceError(.audit, "the purge of \(removed.count) entries could not be recorded: \(error)")
            }
            return removed
        }
        auditor.flush()
        return removed.count
    }
}
