import Foundation
import HTTPCaching
import MediaAudit
import MediaCore
import MediaCrypto
import MediaPolicy
import MediaStorage
import Synchronization

/// Tunables of a ``MediaService`` (``MediaService/Configuration``).
public struct ServiceConfiguration: Sendable {
    /// The state directory, created 0700 when missing. Default: `./.mediactl`.
    public var stateDirectory: String
    /// "Now" in seconds since the epoch. Default: the system clock. Tests inject their own.
    public var clock: @Sendable () -> Double
    /// User storage hooks, run after RFC 9111, tier and limit steps; they can only narrow.
    public var hooks: [any StorageHook]
    /// Request-target limits (path length etc.). Default: ``RequestTarget/Configuration/init()``.
    public var targetLimits: RequestTarget.Configuration
    /// Audit log segment size and fsync batching.
    public var audit: AuditLog.Configuration
    /// Whether store writes `fsync` files and folders. Default: `true`. Benchmarks may turn it off.
    public var synchronizesWrites: Bool
    /// Write-behind for the `disk` and `encrypted-disk` classes: a miss is answered once its `store`
    /// record is written and the entry is in memory; its file is written (and fsynced) by the store's
    /// background writer afterwards (``MediaStorage/DiskStore/Configuration/writesBehind``). Purges,
    /// sweeps and evictions drop an entry whose file is not written yet, so its file never appears.
    /// ``flushWrites()`` and ``stop()`` wait for the writers. Default: `true`.
    public var writesBehind: Bool
    /// Derived images: transform threads, queue limit, AVIF share and timeout.
    public var transforms: TransformConfiguration
    /// Observers of every file and audit write point (crash tests). Default: none.
    public var durabilityObservers: DurabilityObservers
    /// Hex SHA-256 of the policy set given to `init` (``PolicyDigest/of(sources:overrides:)`` over its
    /// files), written in the `policy` records of the audit log. Default: `nil`,
    /// ``PolicyDigest/of(_:)`` of the set itself.
    public var policyDigest: String?
    /// When the audit log cannot be written: the delays between retries (docs/operations.md, "When the audit
    /// log cannot be written"). Default: 1 s, doubling to 30 s.
    public var auditRetry: AuditWriterStateMachine.Configuration
    /// Runs the audit log's retries. Default: `nil`, a new ``MediaAudit/AuditRetryTimer``; tests fire their own.
    public var auditRetryScheduler: (any AuditRetryScheduling)?
    /// Told of each change of the audit writer's state, once: it fails (storing stops), is written again, or
    /// the service stops while it fails. Default: ``AuditWriterEvent/message`` after `mediactl: ` on standard
    /// error; `mediactl serve` writes it to its own stderr the same way.
    public var auditEvents: @Sendable (AuditWriterEvent) -> Void
    /// Free bytes the state directory's file system must have for `/_mediactl/ready` to answer `200`
    /// (docs/operations.md, "Liveness and readiness"). Default: 268,435,456 (256 MiB).
    public var readinessMinimumFreeBytes: Int64 = 268_435_456
    /// Told of each load of a request group's stored responses (the test seam that counts lookups per request).
    /// Default: `nil`.
    var lookupObserver: (@Sendable () -> Void)? = nil

    public init(
        stateDirectory: String = ".mediactl",
        clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 },
        hooks: [any StorageHook] = [], targetLimits: RequestTarget.Configuration = .init(),
        audit: AuditLog.Configuration = .init(), synchronizesWrites: Bool = true, writesBehind: Bool = true,
        transforms: TransformConfiguration = .init(), durabilityObservers: DurabilityObservers = .init(),
        policyDigest: String? = nil, auditRetry: AuditWriterStateMachine.Configuration = .init(),
        auditRetryScheduler: (any AuditRetryScheduling)? = nil,
        auditEvents: @escaping @Sendable (AuditWriterEvent) -> Void = StandardError.auditEvent
    ) {
        self.policyDigest = policyDigest
        self.auditRetry = auditRetry
        self.auditRetryScheduler = auditRetryScheduler
        self.auditEvents = auditEvents
        self.stateDirectory = stateDirectory
        self.clock = clock
        self.hooks = hooks
        self.targetLimits = targetLimits
        self.audit = audit
        self.synchronizesWrites = synchronizesWrites
        self.writesBehind = writesBehind
        self.transforms = transforms
        self.durabilityObservers = durabilityObservers
    }
}
