import MediaAudit
import MediaPolicy
import MediaSigning
import MediaStorage

/// The purge stage (docs/architecture.md, "Stages"): removes the stored responses of a ``PurgeScope`` from every
/// tier's stores, or with `soft` marks a tag's stale (``softPurge(tagDigest:)``), audited as one batch.
///
/// A value over the commit stage's gate, purge epoch, auditor and integrity key, and the service's policy snapshot
/// (read under the gate, so a reload never swaps the stores under a purge), partition keyer and subject keys.
struct PurgeStage {
    let commit: StoreCommit
    let routes: HitRouteCache
    let keyer: PartitionKeyer
    /// The subject partitions' keys (opened on first use, ``ServiceKeys/subjects()``).
    let subjects: () throws(ServiceError) -> SubjectKeyer
    /// The service clock, seconds since 1970.
    let clock: @Sendable () -> Double

    var auditor: ServiceAuditor { commit.auditor }

    /// Removes stored responses from memory and disk, audited as one `purge` batch (one record per removed entry,
    /// then a summary with the count). Other partitions, routes and tiers are untouched and the stores keep working.
    /// - Returns: the number of stored responses removed (marked stale for a soft purge by tag).
    /// - Throws: ``ServiceError`` `unknown-route` (a route, or a URL no route mounts); `invalid-url` for a URL that is
    ///   not a request target or whose query the tier refuses; `invalid-subject` for a subject that is not 1–128 of
    ///   `[A-Za-z0-9._-]`; `invalid-tag` for a tag that is not 1–256 visible ASCII characters; `audit` when the batch
    ///   cannot be recorded.
    func purge(_ scope: PurgeScope) throws -> Int {
        let report = try purgeReporting(scope)
        return report.markedStale ?? report.removed.count
    }

    /// What a purge did, for an erasure receipt (``ErasureReceiptMaker``).
    struct Report {
        /// The entries removed (or, for a soft purge, none).
        var removed: [EntryMetadata] = []
        /// The partition purged (a credential's or subject's), or `nil`.
        var partition: String?
        /// The batch's summary record.
        var summary: AuditRecord?
        /// The data keys destroyed (16 hex digits each).
        var destroyedKeys: [String] = []
        /// A soft purge's count of objects marked stale (nothing is removed), else `nil`.
        var markedStale: Int?
    }

    /// ``purge(_:)``, with what it did.
    func purgeReporting(_ scope: PurgeScope) throws -> Report {
        var tagDigest: CacheTagDigest?
        if case .tag(let tag, let soft) = scope {
            guard Tier.isCacheTag(tag) else {
                throw ServiceError(.invalidTag, "the tag is not 1 to 256 visible ASCII characters (no space)")
            }
            let digest = commit.integrityKey.tagDigest(tag)
            if soft { return Report(markedStale: try softPurge(tagDigest: digest)) }
            tagDigest = digest
        }
        let predicate: (EntryMetadata) -> Bool
        let reason: ReasonCode
        var routeName: String?
        var partition: String?
        switch scope {
        case .route(let name):
            let policies = routes.snapshot.policies
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
        case .url(let target):
            let snapshot = routes.snapshot
            let primary = try Self.primaryKey(of: target, in: snapshot)
            routeName = primary.route
            // The source's own key, then U+001F (its partition) or U+001E (a derived image's parameters): exact, so
            // `/a.jpg` never purges `/a.jpg2`.
            let source = primary.key + "\u{1F}", derived = primary.key + String(CacheKey.derivedSeparator)
            predicate = { $0.key.hasPrefix(source) || $0.key.hasPrefix(derived) }
            reason = .purgeURL
        case .tag:
            let digest = tagDigest!
            predicate = { $0.tags.contains(digest) }
            reason = .purgeTag
        case .all:
            predicate = { _ in true }
            reason = .purgeAll
        }
        // Exclusive: no exchange stores between the epoch bump and the batch's record (StoreGate).
        let report = try commit.gate.exclusive { () throws -> Report in
            commit.purgeEpoch.bump()
            var removed: [EntryMetadata] = []
            let runtimes = routes.snapshot.runtimes
            let destroyed = try partition.map { try shredKeys(partition: $0, in: runtimes) } ?? []
            for name in runtimes.keys.sorted() {
                let runtime = runtimes[name]!
                let gone = runtime.removeAll(where: predicate)
                runtime.counters.bump(.purged, by: gone.count)
                removed.append(contentsOf: gone)
            }
            do {
                let summary = try auditor.purge(removed, reason: reason, tier: nil, route: routeName, partition: partition,
                                                tag: tagDigest?.hex)
                return Report(removed: removed, partition: partition, summary: summary, destroyedKeys: destroyed)
            } catch {
                throw ServiceError(.audit, "the purge of \(removed.count) entries could not be recorded: \(error)")
            }
        }
        auditor.flush()
        return report
    }

    /// Crypto-shredding, before a partition's files are removed: each encrypted-disk tier's data keys of `partition`
    /// are recorded (`shred` `partition-key-destroyed`, with `keyId`), the log flushed, then the keys destroyed. A file
    /// that outlives its removal (a crash next, a failed unlink) cannot be opened by anyone; `mediactl audit` calls it
    /// `shredded-remnant`.
    /// - Returns: the ids of the keys destroyed.
    /// - Throws: ``ServiceError`` `audit` when the records cannot be written (nothing is destroyed or removed).
    @discardableResult
    func shredKeys(partition: String, in runtimes: [String: TierRuntime]) throws -> [String] {
        var shredded: [(tier: String, store: EncryptedDiskStore, ids: [String])] = []
        for name in runtimes.keys.sorted() {
            guard let store = runtimes[name]!.sealed else { continue }
            let ids = store.keyIDs(partition: partition)
            if !ids.isEmpty { shredded.append((name, store, ids)) }
        }
        guard !shredded.isEmpty else { return [] }
        do {
            try auditor.keysDestroyed(shredded.map { ($0.tier, $0.ids) }, partition: partition)
        } catch {
            throw ServiceError(.audit, "the destruction of the partition's data keys could not be recorded: \(error)")
        }
        return shredded.flatMap { $0.store.destroyKeys(partition: partition) }
    }

    /// The primary key a URL's stored responses are kept under, and its route's name: the URL routed and keyed as a
    /// request for it is (``TargetKeying``: the tier's signature parameters, without being verified, and its ignored
    /// parameters dropped, a variant's parameters split off), so any spelling a client is served from names its entry.
    /// - Throws: ``ServiceError`` `unknown-route` when no route mounts the path, `invalid-url` when it is not a
    ///   request target or its query is refused (the refusal a request for it would get).
    static func primaryKey(of target: String, in snapshot: PolicySnapshot) throws(ServiceError) -> (key: String, route: String) {
        let match: RouteMatch
        do {
            match = try snapshot.router.resolve(target)
        } catch {
            throw ServiceError(error.code == .noRoute ? .unknownRoute : .invalidURL,
                               error.code == .noRoute ? error.context : "\(error.code): \(error.context)")
        }
        guard let runtime = snapshot.runtimes[match.route.tier] else {
            throw ServiceError(.unknownRoute, "no route is mounted at \(target.prefix { $0 != "?" })")
        }
        switch TargetKeying.key(match.removingSignatureParameters(of: runtime.tier), runtime: runtime, accept: nil) {
        case .success(let keying): return (keying.primaryKey(on: runtime), match.route.name)
        case .failure(let error): throw ServiceError(.invalidURL, "\(error.code): \(error.detail)")
        }
    }
}
