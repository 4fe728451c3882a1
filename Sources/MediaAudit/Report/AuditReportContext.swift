/// What the JUnit and HTML renderings of an ``AuditReport`` (the MediaAuditReports module) show besides the
/// report itself: when the audit ran, how long it took, the time range of the records it reconciled, and
/// notes for people.
///
/// The CLI fills it while it audits (``TimeRange/add(_:)`` for every record streamed); tests build it
/// with fixed values so that the renderings are exact.
public struct AuditReportContext: Hashable, Sendable {
    /// The `time` of the first and last record reconciled (chain order, so normally oldest and newest).
    public struct TimeRange: Hashable, Sendable {
        /// The first record's `time`, `nil` before any record.
        public private(set) var first: AuditTime?
        /// The last record's `time`, `nil` before any record.
        public private(set) var last: AuditTime?

        /// An empty range (no records).
        public init() {}

        /// A range from `first` to `last`.
        public init(first: AuditTime, last: AuditTime) {
            self.first = first
            self.last = last
        }

        /// Extends the range by the next record's `time`.
        public mutating func add(_ time: AuditTime) {
            if first == nil { first = time }
            last = time
        }

        /// `first – last` as RFC 3339 (`2026-11-29T11:07:15.123Z – 2026-11-29T12:00:00.000Z`), or
        /// `no records`.
        public var text: String {
            guard let first, let last else { return "no records" }
            return "\(first.rfc3339) – \(last.rfc3339)"
        }
    }

    /// When the audit ran (JUnit `timestamp`, the HTML page's "generated" line).
    public var generatedAt: AuditTime
    /// How long the audit took, in milliseconds (JUnit `time` of the `testsuites` root). Negative
    /// values are shown as 0.
    public var durationMilliseconds: Int64
    /// The time range of the records reconciled.
    public var records: TimeRange
    /// Lines for people shown after the report (the CLI's log and inventory notes, e.g.
    /// `temporary-file disk/public/ab/cd/<name>`); the JUnit rendering puts them in `system-out`.
    public var notes: [String]

    public init(generatedAt: AuditTime, durationMilliseconds: Int64 = 0, records: TimeRange = TimeRange(),
                notes: [String] = []) {
        self.generatedAt = generatedAt
        self.durationMilliseconds = durationMilliseconds
        self.records = records
        self.notes = notes
    }
}
