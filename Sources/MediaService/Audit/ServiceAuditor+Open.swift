import MediaAudit

extension ServiceAuditor {
    /// The auditor of a service: over `injected` (tests), or over the audit log of the configured state directory
    /// (returned too: its open report, its durability barrier).
    /// - Throws: ``MediaAudit/AuditError`` (`locked` when another process writes the same log),
    ///   ``MediaSigning/SecretFileError`` when the log's signing key (``AuditSigningKeyFile``) cannot be made or is refused.
    static func open(configuration: ServiceConfiguration, injected: (any AuditRecording)?) throws
        -> (ServiceAuditor, AuditLog?)
    {
        let clock = configuration.clock
        let milliseconds: @Sendable () -> Int64 = { Int64(clock() * 1000) }
        let log: any AuditRecording
        var auditLog: AuditLog?
        if let injected {
            log = injected
        } else {
            // The key that signs the log's checkpoints, made at the first start (`mediactl audit public-key` prints it).
            let signer = try AuditSigningKeyFile.open(stateDirectory: configuration.stateDirectory)
            let opened = try AuditLog(stateDirectory: configuration.stateDirectory, configuration: configuration.audit,
                                      clock: milliseconds, observer: configuration.durabilityObservers.audit,
                                      signer: signer)
            auditLog = opened
            log = opened
        }
        let auditor = ServiceAuditor(log: log, retry: configuration.auditRetry, clock: milliseconds,
                                     scheduler: configuration.auditRetryScheduler, onEvent: configuration.auditEvents)
        return (auditor, auditLog)
    }
}
