import MediaAudit
import MediaPolicy
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
    /// Every stored response carrying the cache tag (docs/policy-format.md, "Cache tags"), matched exactly: removed, or
    /// with `soft` marked stale (revalidated on the next request; `stale-while-revalidate` and `stale-if-error` apply).
    case tag(String, soft: Bool)
    /// Everything.
    case all
}

extension MediaService {
    /// The keyed digest under the install's integrity key of cache tag `tag` (64 lower-case hex): what stored entries
    /// carry instead of the tag and what the summary record of a purge by tag names (`tag`), so an auditor who knows a
    /// tag can find its purges in the log, and nobody can read tags from the log or the files.
    public func cacheTagDigest(_ tag: String) -> String { storeCommit.integrityKey.tagDigest(tag) }

    /// Removes stored responses from memory and disk, audited as one `purge` batch (one record per
    /// removed entry, then a summary with the count). Other partitions, routes and tiers are untouched
    /// and the stores keep working.
    /// - Returns: the number of stored responses removed.
    /// - Throws: ``ServiceError`` `unknown-route`; `invalid-subject` for a subject that is not 1–128 of
    ///   `[A-Za-z0-9._-]`; `invalid-tag` for a tag that is not 1–256 visible ASCII characters; `audit` when the batch
    ///   cannot be recorded.
    @discardableResult
    public func purge(_ scope: PurgeScope) throws -> Int {
        var tagDigest: String?
        if case .tag(let tag, let soft) = scope {
            guard Tier.isCacheTag(tag) else {
                throw ServiceError(.invalidTag, "the tag is not 1 to 256 visible ASCII characters (no space)")
            }
            let digest = storeCommit.integrityKey.tagDigest(tag)
            if soft { return try softPurge(tagDigest: digest) }
            tagDigest = digest
        }
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
        case .tag:
            let digest = tagDigest!
            predicate = { $0.tags.contains(digest) }
            reason = .purgeTag
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
                try auditor.purge(removed, reason: reason, tier: nil, route: routeName, partition: partition, tag: tagDigest)
            } catch {
                throw ServiceError(.audit, "the purge of \(removed.count) entries could not be recorded: \(error)")
            }
            return removed
        }
        auditor.flush()
        return removed.count
    }
}
