extension AuditLog {
    /// Tunables of the writer.
    public struct Configuration: Sendable, Hashable {
        /// Rotate before an append would make `audit.jsonl` larger than this, in bytes. A single batch larger
        /// than this still goes into one file. Default: 8,388,608 (8 MiB).
        public var maxSegmentBytes: Int
        /// fsync once this many records are unsynced. `1` syncs every append. Default: 64.
        public var syncEveryRecords: Int
        /// fsync at an append when the last fsync is at least this old, in milliseconds of the injected
        /// clock (checked on append). With ``syncsInBackground`` the log's thread also fsyncs unsynced
        /// records after this many milliseconds of real time without a batch. Default: 1,000.
        public var syncIntervalMilliseconds: Int64
        /// Whether a batch's fsync runs on the log's own thread (group commit) instead of in the append
        /// that completes the batch. Either way the line is written before ``AuditLog/append(_:)``
        /// returns, and ``AuditLog/flush()`` / ``AuditLog/close()`` fsync before they return.
        /// Default: `true`.
        public var syncsInBackground: Bool
        /// Write the Merkle tree's signed checkpoint (`tree-checkpoint`) once this many records were appended since
        /// the last one; rotation and close write one too. Only with a signer (``AuditLog/init(directory:configuration:clock:observer:writer:signer:)``).
        /// Default: 4,096.
        public var checkpointEveryRecords: Int
        /// Also write one once records have waited this long for it, in milliseconds of the injected clock (checked on
        /// append, and on the log's thread with ``syncsInBackground``, so a quiet log's last records are checkpointed
        /// too). Default: 60,000.
        public var checkpointIntervalMilliseconds: Int64

        public init(maxSegmentBytes: Int = 8 << 20, syncEveryRecords: Int = 64, syncIntervalMilliseconds: Int64 = 1000,
                    syncsInBackground: Bool = true, checkpointEveryRecords: Int = 4096,
                    checkpointIntervalMilliseconds: Int64 = 60_000) {
            self.maxSegmentBytes = maxSegmentBytes
            self.syncEveryRecords = max(1, syncEveryRecords)
            self.syncIntervalMilliseconds = syncIntervalMilliseconds
            self.syncsInBackground = syncsInBackground
            self.checkpointEveryRecords = max(1, checkpointEveryRecords)
            self.checkpointIntervalMilliseconds = checkpointIntervalMilliseconds
        }
    }

    /// What opening found, for the service to audit (a `start` record with reason `repaired-torn-tail`
    /// when ``tornTailBytes`` > 0).
    public struct OpenReport: Sendable, Hashable {
        /// Bytes truncated from the end of `audit.jsonl`: an incomplete or unparsable last line. 0 normally.
        public let tornTailBytes: Int
        /// `seq` of the last valid record found (0 for a new log); the next append gets `lastSeq + 1`.
        public let lastSeq: Int
        /// `hash` of that record, or ``AuditDigest/zero`` for a new log.
        public let lastHash: AuditDigest
        /// Number of rotated segments found.
        public let rotatedSegments: Int
        /// Why the log keeps no Merkle tree (``AuditTreeWriter``): a log pruned before its entries were kept. `nil`
        /// normally.
        public let treeProblem: String?

        public init(tornTailBytes: Int, lastSeq: Int, lastHash: AuditDigest, rotatedSegments: Int,
                    treeProblem: String? = nil) {
            self.tornTailBytes = tornTailBytes
            self.lastSeq = lastSeq
            self.lastHash = lastHash
            self.rotatedSegments = rotatedSegments
            self.treeProblem = treeProblem
        }
    }
}
