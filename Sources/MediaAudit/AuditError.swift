import MediaCore

/// An error thrown by ``MediaAudit``: a stable ``code`` plus a human-readable context.
///
/// New codes may be added; switch over ``code`` with a `default` branch. The context never contains
/// the refused value itself when that value may be a secret (it states only its length and the rule).
public struct AuditError: CodedError {
    /// The stable error code.
    public struct Code: ErrorCode {
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }

        /// A digest was not exactly 64 lower-case hex characters.
        public static let invalidDigest = Code("invalid-digest")
        /// A reason code was not `[a-z0-9:-]{1,64}`.
        public static let invalidReason = Code("invalid-reason")
        /// A variant's `transform` was not `[a-z0-9=,]{1,128}`.
        public static let invalidTransform = Code("invalid-transform")
        /// `derivedFrom`/`transform` on an event other than `store` or `update`, or one without the other.
        public static let invalidDerivation = Code("invalid-derivation")
        /// `bodyDigest` on an event other than `store` or `update`, or without `bytes`.
        public static let invalidBodyDigest = Code("invalid-body-digest")
        /// `since` on an event other than `gap`, or a `gap` record without it.
        public static let invalidGap = Code("invalid-gap")
        /// A tier or route name was not `[A-Za-z0-9._-]{1,64}`.
        public static let invalidName = Code("invalid-name")
        /// A URL was not an absolute `http`/`https` URL with a host, or was too long.
        public static let invalidURL = Code("invalid-url")
        /// A URL was attached to a record that has a partition.
        public static let urlWithPartition = Code("url-with-partition")
        /// A numeric field (`bytes`, `ttl`, `count`) was negative.
        public static let invalidNumber = Code("invalid-number")
        /// A file-system call failed (context names the call, the path and `errno`).
        public static let io = Code("io")
        /// The existing log cannot be continued: its last complete line is not a valid record.
        public static let corruptLog = Code("corrupt-log")
        /// Another open ``AuditLog`` (in this or another process) holds the folder's exclusive lock.
        public static let locked = Code("locked")
        /// The log was used after ``AuditLog/close()``.
        public static let closed = Code("closed")
        /// ``RecoveringAuditLog`` refused the append without trying: the log has been failing since an earlier
        /// append (the context says since when and why) and is retried on a backoff (docs/audit-format.md, "Gaps").
        public static let unavailable = Code("unavailable")
        /// ``AuditPruner`` refused: the segments to remove, or the checkpoint, are evidence of a broken
        /// chain or of records the policies forbid (the context, `refusing to prune: …`, says which).
        public static let pruneRefused = Code("prune-refused")
        /// A signed note, checkpoint or verifier key is malformed, or its signature does not verify (C2SP signed-note,
        /// tlog-checkpoint); the context says which rule it broke.
        public static let invalidNote = Code("invalid-note")
        /// A C2SP tlog-tiles path (``TilePath``) is not in its canonical form; the context says which part.
        public static let invalidTilePath = Code("invalid-tile-path")
        /// An erasure receipt (``ErasureReceipt``) is malformed; the context names the member.
        public static let invalidReceipt = Code("invalid-receipt")
    }

    /// The stable error code.
    public let code: Code
    /// What failed, for people.
    public let context: String
    /// The `errno` of the failed system call (``AuditError/Code/io``), or `nil`.
    public let errno: Int32?
    /// The failed system call and its path, e.g. `write /var/lib/mediactl/audit/audit.jsonl`, or `nil`.
    public let operation: String?

    public init(_ code: Code, _ context: String) {
        self.init(code, context, errno: nil, operation: nil)
    }

    /// An error naming the system call that failed (``AuditError/Code/io``).
    /// - Parameters:
    ///   - errno: the call's `errno`, e.g. `EPERM` (1).
    ///   - operation: the call and its path, e.g. `write /var/lib/mediactl/audit/audit.jsonl`.
    public init(_ code: Code, _ context: String, errno: Int32?, operation: String?) {
        self.code = code
        self.context = context
        self.errno = errno
        self.operation = operation
    }

    /// ``errno`` with its name, written `EPERM (1)`; `nil` without one.
    public var systemError: AuditErrno? { errno.map { AuditErrno($0) } }

    /// Equal when ``code`` and ``context`` are (``errno`` and ``operation`` are named in the context already).
    public static func == (lhs: AuditError, rhs: AuditError) -> Bool {
        lhs.code == rhs.code && lhs.context == rhs.context
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(context)
    }
}
