import Foundation
import HTTPCaching
import MediaAudit
import MediaCrypto
import MediaPolicy
import MediaStorage
import Synchronization

/// The media pipeline (docs/architecture.md, "Request flow"): route → credentials → RFC 9111 lookup
/// → single-flight origin fetch → image validation → storage hook chain → store → audit → respond.
///
/// One instance owns a state directory (`disk/`, `sealed/`, `audit/`), the per-process keys (sealing,
/// partition digests) and the stores of every tier. Call ``stop()`` for a graceful stop: sealed
/// files are shredded, keys zeroed, and a `stop` record is written.
public final class MediaService: Sendable {
    /// Tunables of a service.
    public typealias Configuration = ServiceConfiguration

    /// The policies in force (they change with ``reload(policies:digest:)``).
    public var policies: PolicySet { hitRoutes.snapshot.policies }
    /// Hex SHA-256 of the policies in force, as in the audit log's `policy` records.
    public var policyDigest: String { hitRoutes.snapshot.digest }
    let configuration: Configuration
    /// The router of the policies in force.
    var router: Router { hitRoutes.snapshot.router }
    let fetcher: any OriginFetching
    /// The tier runtimes of the policies in force.
    var runtimes: [String: TierRuntime] { hitRoutes.snapshot.runtimes }
    let auditor: ServiceAuditor
    let auditLog: AuditLog?
    /// What object files wait on before they become visible: the audit log's fsync of their record (docs/storage.md,
    /// "Durability"); `nil` without a log or with unsynchronised writes (tests).
    var durabilityBarrier: (any DurabilityBarrier)? {
        configuration.synchronizesWrites ? auditLog.map(AuditDurabilityBarrier.init) : nil
    }
    /// The per-process keys: partitions, subject partitions and keyed digests.
    let keys: ServiceKeys
    /// The install's integrity key (``IntegrityKeyFile``, `<state>/keys/integrity.key`, made at the first start): it
    /// keys the disk stores' file tags and the `bodyDigest` of `store` and `update` records.
    let integrityKey: IntegrityKey
    let chain: StorageHookChain
    let flights = SingleFlight<String, Exchange>()
    /// Derivations of one variant, coalesced (``Serving/deriveVariant(_:stored:selection:candidates:)``).
    let derivations = SingleFlight<String, Derivation>()
    let isStopped = Atomic<Bool>(false)
    /// Bumped when a purge starts: exchanges admitted earlier store nothing (logout during a fetch).
    let purgeEpoch = PurgeEpoch()
    /// Stores take it shared, purges, invalidations and expiries exclusive (``StoreGate``).
    let gate = StoreGate()
    /// The commit stage over this service's chain, auditor, gate, integrity key and purge epoch.
    var storeCommit: StoreCommit {
        StoreCommit(chain: chain, auditor: auditor, gate: gate, integrityKey: integrityKey, purgeEpoch: purgeEpoch, keys: keys)
    }
    let background = BackgroundTasks()
    /// The forward stage over this service's origin transport, flights, commit stage and policy snapshot.
    var forwarding: Forwarding {
        Forwarding(fetcher: fetcher, flights: flights, commit: storeCommit, routes: hitRoutes, clock: configuration.clock,
                   fetchTimes: originFetchTimes)
    }
    /// The cache stage (lookup, hit, forward, derive) over the forward stage and this service's derivations.
    var serving: Serving {
        Serving(forwarding: forwarding, derivations: derivations,
                derivation: ImageDerivation(commit: storeCommit, transforms: configuration.transforms,
                                            clock: configuration.clock),
                background: background, lookupObserver: configuration.lookupObserver)
    }
    /// The policy snapshot in force and the admissions of raw targets for the memory-hit fast path
    /// (``fastHit(_:)``).
    let hitRoutes: HitRouteCache
    /// Serializes reloads (``reload(policies:digest:)``).
    let reloading = Mutex<Void>(())
    /// `mediactl_policy_reloads_total{result="ok"}` and `{result="failed"}`.
    let reloadCounts = ReloadCounters()
    /// What the HTTP front records per answer (`mediactl_request_duration_seconds`, `mediactl_responses_total`).
    public let requestMetrics: RequestMetrics
    /// `mediactl_origin_fetch_duration_seconds`, by route.
    let originFetchTimes = OriginFetchTimes()

    /// Opens the state directory and the audit log, shreds sealed files of an earlier process
    /// (audited `shred`), rebuilds the disk index, empties the tier folders the policies no longer keep
    /// in files (``UnownedTierFolders``, audited), and writes a `start` record.
    /// - Parameters:
    ///   - policies: the loaded policies (`PolicyLoader`).
    ///   - fetcher: the origin transport (`CurlOriginFetcher` in production, through `DefaultOriginFetcher`:
    ///     the MediaCurl module).
    ///   - configuration: see ``Configuration``.
    ///   - auditLog: a recorder to use instead of `<state>/audit` (tests). Default: `nil`.
    /// - Throws: `ServiceError` `invalid-policy` when a secret file the policies name is refused
    ///   (``PolicySecrets/load(for:)``; nothing is written then), `state-directory` when the directory, its integrity
    ///   key or its subject key cannot be created or is refused, ``MediaAudit/AuditError`` (`locked` when another
    ///   process writes the same log),
    ///   ``MediaStorage/StorageError``.
    public init(policies: PolicySet, fetcher: any OriginFetching, configuration: Configuration = Configuration(),
                auditLog injected: (any AuditRecording)? = nil) throws {
        self.configuration = configuration
        self.fetcher = fetcher
        requestMetrics = RequestMetrics(tiers: policies.tiers.keys)
        let secrets = try Self.secrets(for: policies)
        try StateDirectory.prepare(configuration.stateDirectory)
        do {
            integrityKey = try IntegrityKeyFile.open(stateDirectory: configuration.stateDirectory)
        } catch {
            throw ServiceError(.stateDirectory, "\(error)")
        }
        let clock = configuration.clock
        let milliseconds: @Sendable () -> Int64 = { Int64(clock() * 1000) }
        let log: any AuditRecording
        if let injected {
            auditLog = nil
            log = injected
        } else {
            let opened = try AuditLog(stateDirectory: configuration.stateDirectory, configuration: configuration.audit,
                                      clock: milliseconds, observer: configuration.durabilityObservers.audit)
            auditLog = opened
            log = opened
        }
        let auditor = ServiceAuditor(log: log, retry: configuration.auditRetry, clock: milliseconds,
                                     scheduler: configuration.auditRetryScheduler, onEvent: configuration.auditEvents)
        self.auditor = auditor
        let torn = auditLog?.openReport.tornTailBytes ?? 0
        try auditor.start(reason: torn > 0 ? "repaired-torn-tail" : "service-start", bytes: torn > 0 ? torn : nil)
        let digest = configuration.policyDigest ?? PolicyDigest.of(policies)
        try auditor.policy(digest: digest, tiers: policies.tiers, reason: "policy-loaded")
        keys = try ServiceKeys(stateDirectory: configuration.stateDirectory)
        let router = try PolicySnapshot.router(for: policies)
        chain = StorageHookChain(hooks: configuration.hooks)
        var runtimes: [String: TierRuntime] = [:]
        // Object files become visible only once their record is durable (docs/storage.md, "Durability").
        let barrier = configuration.synchronizesWrites ? auditLog.map(AuditDurabilityBarrier.init) : nil
        for (name, tier) in policies.tiers {
            runtimes[name] = try Self.makeRuntime(name: name, tier: tier, counters: TierCounters(),
                                                  configuration: configuration, integrityKey: integrityKey,
                                                  auditor: auditor, barrier: barrier)
        }
        // Files of tiers the policies no longer keep in files (removed, renamed or narrowed) go now, audited.
        try UnownedTierFolders.clear(stateDirectory: configuration.stateDirectory, runtimes: runtimes,
                                     integrityKey: integrityKey, auditor: auditor)
        UnownedTierFolders.dropUnscopedKeys(runtimes: runtimes, auditor: auditor)
        hitRoutes = HitRouteCache(snapshot: PolicySnapshot(policies: policies, digest: digest, router: router,
                                                           runtimes: runtimes, secrets: secrets))
        if policies.tiers.values.contains(where: { $0.signedURLs != nil }) { _ = try keys.subjects() }
        auditor.flush()
    }

    /// A new runtime for `tier`, named `name` (its stores opened on the state directory), whose store events are audited and
    /// counted in `counters`; sealed files an earlier process left are shredded while its store opens (audited,
    /// closed by a `shred` summary).
    /// - Parameters:
    ///   - integrityKey: the install's key of the disk store's file tags.
    ///   - barrier: what an object file waits on before it becomes visible (its record durable,
    ///     docs/storage.md "Durability"), or `nil`.
    static func makeRuntime(name: String, tier: Tier, counters: TierCounters, configuration: Configuration,
                            integrityKey: IntegrityKey, auditor: ServiceAuditor,
                            barrier: (any DurabilityBarrier)?) throws -> TierRuntime {
        let shredsBefore = counters.value(.shredded)
        let runtime = try TierRuntime(
            tier: tier, counters: counters, stateDirectory: configuration.stateDirectory, integrityKey: integrityKey,
            synchronizesWrites: configuration.synchronizesWrites, writesBehind: configuration.writesBehind,
            barrier: barrier, observer: configuration.durabilityObservers.files
        ) { event in
            auditor.record(event, tier: name)
            switch event.kind {
            case .evict, .corrupt: counters.bump(.evicted)
            case .expire: counters.bump(.expired)
            case .shred: counters.bump(.shredded)
            }
        }
        // Sealed files of an earlier process were shredded while the store opened: close the batch.
        auditor.shredSummary(tier: name, count: counters.value(.shredded) - shredsBefore,
                             reason: ReasonCode.unreadableAfterRestart.rawValue)
        return runtime
    }

    /// ``PolicySecrets/load(for:)``, its problems as one `invalid-policy` error (one problem per line).
    static func secrets(for policies: PolicySet) throws(ServiceError) -> PolicySecrets {
        do {
            return try PolicySecrets.load(for: policies)
        } catch {
            throw ServiceError(.invalidPolicy, error.description)
        }
    }

    /// The audit log's outage in progress (docs/operations.md, "When the audit log cannot be written"), or `nil`
    /// while it is written. While there is one, nothing is stored and `GET /_mediactl/ready` answers `503`.
    public var auditOutage: AuditOutage? { auditor.writer.outage }

    /// ``MediaAudit/AuditWriterEvent/message`` after `mediactl: ` and a newline on standard error: the default
    /// ``Configuration/auditEvents``.
    public static let writeAuditEventToStandardError: @Sendable (AuditWriterEvent) -> Void = { event in
        StandardError.write("mediactl: " + event.message)
    }

    /// Whether `source` varies beyond a variant's key (``ImageDerivation/variesBeyondVariantKey(_:tier:)``): `inspect`
    /// asks it too.
    public static func variesBeyondVariantKey(_ source: StoredResponse, tier: Tier) -> Bool {
        ImageDerivation.variesBeyondVariantKey(source, tier: tier)
    }

    /// Seconds since the epoch, from the configured clock.
    var now: Double { configuration.clock() }

    /// `response` as sent: with the route's CORS fields (``CORSResponder``, when the route has `cors`) and, for a
    /// signed request, ``SignedAnswer``'s. Costs one dictionary check when no route has `cors`.
    func finished(_ response: consuming ServiceResponse, _ request: ServiceRequest, _ context: RequestContext? = nil)
        -> ServiceResponse
    {
        var response = response
        if let context, let signature = context.signature {
            context.runtime.counters.signed.count("verified")
            SignedAnswer.decorate(&response, expires: signature.expires, now: now)
        }
        let cors = hitRoutes.snapshot.cors
        if !cors.isEmpty, let route = response.outcome.route, response.outcome.reason != CORSResponder.preflightReason,
           let policy = context?.cors ?? cors[route] {
            CORSResponder.decorate(&response, cors: policy, origin: request.fields[.origin])
        }
        return response
    }
}
