/// The result of ``AuditVerifier/verify(directory:)``: intact, or the first place the chain breaks.
public struct AuditVerification: Hashable, Sendable, Codable {
    /// A stable failure kind.
    public struct Kind: Hashable, Sendable, Codable, CustomStringConvertible {
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        public init(from decoder: any Decoder) throws {
            self.rawValue = try decoder.singleValueContainer().decode(String.self)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }

        /// A record's `hash` is not the SHA-256 of its canonical JSON (a field was edited).
        public static let hashMismatch = Kind("hash-mismatch")
        /// A `seq` is missing and never appears later (a line was deleted).
        public static let seqGap = Kind("seq-gap")
        /// A `seq` appears out of order (lines swapped or duplicated).
        public static let seqOrder = Kind("seq-order")
        /// A record's `prev` is not the previous record's `hash`.
        public static let prevMismatch = Kind("prev-mismatch")
        /// The last line of a file has no trailing newline (truncated mid-line, torn write).
        public static let tornLine = Kind("torn-line")
        /// A line is not a JSON object.
        public static let invalidJSON = Kind("invalid-json")
        /// A JSON object that is not a record (missing, unknown or badly typed field).
        public static let invalidRecord = Kind("invalid-record")
        /// The checkpoint a prune left (`checkpoint.json` or its objects file) is malformed, missing or
        /// does not match (a count or digest): the chain's start cannot be trusted.
        public static let invalidCheckpoint = Kind("invalid-checkpoint")
    }

    /// Where and how the chain breaks.
    public struct Failure: Hashable, Sendable, Codable {
        /// The failure kind.
        public let kind: Kind
        /// The `seq` expected at the failing line (for `prev-mismatch`/`hash-mismatch`, that record's `seq`).
        public let seq: Int
        /// The file name inside the audit folder.
        public let file: String
        /// The 1-based line number in that file.
        public let line: Int
        /// Details for people.
        public let detail: String

        public init(kind: Kind, seq: Int, file: String, line: Int, detail: String) {
            self.kind = kind
            self.seq = seq
            self.file = file
            self.line = line
            self.detail = detail
        }
    }

    /// Records verified before the failure (all of them when intact).
    public let recordCount: Int
    /// `hash` of the last verified record (``AuditDigest/zero`` when none).
    public let lastHash: AuditDigest
    /// The first failure, or `nil` when the chain is intact.
    public let failure: Failure?
    /// `seq` of the ``AuditCheckpoint`` the chain continues from (records up to it were pruned), 0 when
    /// the log starts at `seq` 1.
    public let checkpointSeq: Int

    public init(recordCount: Int, lastHash: AuditDigest, failure: Failure?, checkpointSeq: Int = 0) {
        self.recordCount = recordCount
        self.lastHash = lastHash
        self.failure = failure
        self.checkpointSeq = checkpointSeq
    }

    /// `true` when there is no failure.
    public var isIntact: Bool { failure == nil }
}

extension AuditVerification {
    private enum CodingKeys: String, CodingKey { case intact, recordCount, lastHash, failure, checkpointSeq }

    /// JSON: `{"intact":Bool,"recordCount":Int,"lastHash":hex,"failure":{…}|null,"checkpointSeq":Int}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(isIntact, forKey: .intact)
        try container.encode(recordCount, forKey: .recordCount)
        try container.encode(lastHash, forKey: .lastHash)
        if let failure { try container.encode(failure, forKey: .failure) } else { try container.encodeNil(forKey: .failure) }
        try container.encode(checkpointSeq, forKey: .checkpointSeq)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        recordCount = try container.decode(Int.self, forKey: .recordCount)
        lastHash = try container.decode(AuditDigest.self, forKey: .lastHash)
        failure = try container.decodeIfPresent(Failure.self, forKey: .failure)
        checkpointSeq = try container.decodeIfPresent(Int.self, forKey: .checkpointSeq) ?? 0
    }
}
