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
    let fetcher: any OriginFetching
    /// The tier runtimes of the policies in force.
    var runtimes: [String: TierRuntime] { hitRoutes.snapshot.runtimes }
    let auditor: ServiceAuditor
    let auditLog: AuditLog?
    /// What object files wait on before they become visible: the audit log's fsync of their record (docs/storage.md,
    /// "Durability"); `nil` without a log or with unsynchronised writes (tests).
    let durabilityBarrier: (any DurabilityBarrier)?
    /// The per-process keys: partitions, subject partitions and keyed digests.
    let keys: ServiceKeys
    /// The install's integrity key (``IntegrityKeyFile``, `<state>/keys/integrity.key`, made at the first start): it
    /// keys the disk stores' file tags and the `bodyDigest` of `store` and `update` records.
    let integrityKey: IntegrityKey
    let isStopped = Atomic<Bool>(false)
    /// Bumped when a purge starts: exchanges admitted earlier store nothing (logout during a fetch).
    let purgeEpoch = PurgeEpoch()
    /// The commit stage over the hook chain, auditor, store gate, integrity key, purge epoch and keys.
    let storeCommit: StoreCommit
    /// The cache stage (lookup, hit, forward, derive) over the forward stage (``forwarding``).
    let cacheLookup: CacheLookup
    /// The forward stage over the origin transport, flights, commit stage and policy snapshot.
    var forwarding: Forwarding { cacheLookup.forwarding }
    /// The policy snapshot in force and the admissions of raw targets for the memory-hit fast path (``hitPath``).
    let hitRoutes: HitRouteCache
    /// The memory-hit fast path over ``hitRoutes``.
    let hitPath: HitPath
    /// Serializes reloads (``reload(policies:digest:)``).
    let reloading = Mutex<Void>(())
    /// `mediactl_policy_reloads_total{result="ok"}` and `{result="failed"}`.
    let reloadCounts = ReloadCounters()
    /// What the HTTP front records per answer (`mediactl_request_duration_seconds`, `mediactl_responses_total`).
    public let requestMetrics: RequestMetrics

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
    ///   (``PolicySecrets/load(for:)``) or a tier declares variants and libvips cannot be used here
    ///   (``PolicySnapshot/requireImageEngine(for:unavailable:)``; nothing is written then), `state-directory` when the directory, its integrity
    ///   key or its subject key cannot be created or is refused, ``MediaAudit/AuditError`` (`locked` when another
    ///   process writes the same log),
    ///   ``MediaStorage/StorageError``.
    public init(policies: PolicySet, fetcher: any OriginFetching, configuration: Configuration = Configuration(),
                auditLog injected: (any AuditRecording)? = nil) throws {
        self.configuration = configuration
        self.fetcher = fetcher
        requestMetrics = RequestMetrics(tiers: policies.tiers.keys)
        let secrets = try PolicySnapshot.secrets(for: policies)
        try PolicySnapshot.requireImageEngine(for: policies)
        try StateDirectory.prepare(configuration.stateDirectory)
        do {
            integrityKey = try IntegrityKeyFile.open(stateDirectory: configuration.stateDirectory)
        } catch {
            throw ServiceError(.stateDirectory, "\(error)")
        }
        (auditor, auditLog) = try ServiceAuditor.open(configuration: configuration, injected: injected)
        let torn = auditLog?.openReport.tornTailBytes ?? 0
        try auditor.start(reason: torn > 0 ? "repaired-torn-tail" : "service-start", bytes: torn > 0 ? torn : nil)
        let digest = configuration.policyDigest ?? PolicyDigest.of(policies)
        try auditor.policy(digest: digest, tiers: policies.tiers, reason: "policy-loaded")
        keys = try ServiceKeys(stateDirectory: configuration.stateDirectory)
        let router = try PolicySnapshot.router(for: policies)
        // Object files become visible only once their record is durable (docs/storage.md, "Durability").
        durabilityBarrier = configuration.synchronizesWrites ? auditLog.map(AuditDurabilityBarrier.init) : nil
        let runtimes = try TierRuntime.makeAll(policies.tiers, configuration: configuration, integrityKey: integrityKey,
                                               auditor: auditor, barrier: durabilityBarrier)
        hitRoutes = HitRouteCache(snapshot: PolicySnapshot(policies: policies, digest: digest, router: router,
                                                           runtimes: runtimes, secrets: secrets))
        hitPath = HitPath(routes: hitRoutes, clock: configuration.clock, limits: configuration.targetLimits, keys: keys)
        storeCommit = StoreCommit(chain: StorageHookChain(hooks: configuration.hooks), auditor: auditor, gate: StoreGate(),
                                  integrityKey: integrityKey, purgeEpoch: purgeEpoch, keys: keys)
        let forwarding = Forwarding(fetcher: fetcher, flights: SingleFlight(), commit: storeCommit, routes: hitRoutes,
                                    clock: configuration.clock, fetchTimes: OriginFetchTimes())
        cacheLookup = CacheLookup(forwarding: forwarding, derivations: SingleFlight(),
                                  derivation: ImageDerivation(commit: storeCommit, transforms: configuration.transforms,
                                                              clock: configuration.clock),
                                  background: BackgroundTasks(), lookupObserver: configuration.lookupObserver)
        if policies.tiers.values.contains(where: { $0.signedURLs != nil }) { _ = try keys.subjects() }
        auditor.flush()
    }

    /// The audit log's outage in progress (docs/operations.md, "When the audit log cannot be written"), or `nil`
    /// while it is written. While there is one, nothing is stored and `GET /_mediactl/ready` answers `503`.
    public var auditOutage: AuditOutage? { auditor.writer.outage }

    /// Whether `source` varies beyond a variant's key (``ImageDerivation/variesBeyondVariantKey(_:tier:)``): `inspect`
    /// asks it too.
    public static func variesBeyondVariantKey(_ source: StoredResponse, tier: Tier) -> Bool {
        ImageDerivation.variesBeyondVariantKey(source, tier: tier)
    }

    /// Seconds since the epoch, from the configured clock.
    var now: Double { configuration.clock() }
}
