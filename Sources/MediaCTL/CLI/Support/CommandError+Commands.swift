extension CommandError.Code {
    /// The policy directory is unreadable or its files are invalid (exit 2).
    public static let invalidPolicies = CommandError.Code("invalid-policies")
    /// The state directory does not exist or is not a folder (exit 2).
    public static let noStateDirectory = CommandError.Code("no-state-directory")
    /// The state directory has no audit log (exit 2).
    public static let noAuditLog = CommandError.Code("no-audit-log")
    /// No `mediactl serve` runs for the state directory (exit 2).
    public static let noRunningService = CommandError.Code("no-running-service")
    /// The running service has no admin listener (`--admin-listen off`) (exit 2).
    public static let noAdminListener = CommandError.Code("no-admin-listener")
    /// `mediactl reload`: the policy files are invalid; the service keeps the policies in force (exit 1).
    public static let reloadRefused = CommandError.Code("reload-refused")
    /// The running service refused or failed a request (exit 1 or 2, see ``PurgeCommand``).
    public static let serviceRefused = CommandError.Code("service-refused")
    /// `audit prune` refused: the segments to remove do not verify (exit 1).
    public static let auditPruneRefused = CommandError.Code("audit-prune-refused")
    /// The state directory has no audit signing key (`keys/audit-signing.key`): no service has started on it (exit 2).
    public static let noSigningKey = CommandError.Code("no-signing-key")
    /// `audit prove` or `audit checkpoint`: an index or size outside the log (exit 2).
    public static let outsideLog = CommandError.Code("outside-log")
    /// `audit consistency`: a checkpoint file is not a checkpoint of this log signed by its key (exit 2).
    public static let invalidCheckpoint = CommandError.Code("invalid-checkpoint")
    /// Options that cannot go together in a way the declaration does not say (`--receipt` without a partition).
    public static let invalidOptions = CommandError.Code("invalid-options")
    /// `audit verify-receipt`: the receipt does not hold against the state directory (exit 1).
    public static let receiptFailed = CommandError.Code("receipt-failed")
}
