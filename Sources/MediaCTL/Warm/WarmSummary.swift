/// The tallies of a `mediactl warm` run and their text (docs/cli.md, "mediactl warm").
///
/// ```
/// 6 paths in 1.2 s: 3 stored, 0 refreshed, 1 already fresh, 0 not stored, 1 refused, 1 failed
/// refused 404 origin-status-404: 1 (first: line 5, /catalog/missing.jpg)
/// failed connection-failed: 1 (first: line 6, /catalog/a.jpg)
/// ```
/// The first line always; then one line per distinct reason of the paths not stored, refused and failed,
/// in that order and, within each, by first appearance in the input.
public struct WarmSummary: Sendable, Hashable {
    /// One reason and how often it occurred.
    public struct Reason: Sendable, Hashable {
        /// `not stored`, `refused` or `failed`.
        public var kind: String
        /// Such as `no-store`, `404 origin-status-404`, `connection-failed`.
        public var text: String
        public var count: Int
        /// The first entry with this reason.
        public var first: WarmList.Entry
    }

    public private(set) var stored = 0
    public private(set) var refreshed = 0
    public private(set) var fresh = 0
    public private(set) var notStored = 0
    public private(set) var refused = 0
    public private(set) var failed = 0
    /// The reasons, in the order they are printed.
    public private(set) var reasons: [Reason] = []

    public init() {}

    /// Paths counted so far.
    public var total: Int { stored + refreshed + fresh + notStored + refused + failed }

    /// Whether the run fails (exit 1): any path refused or failed.
    public var isFailure: Bool { refused > 0 || failed > 0 }

    /// Counts `outcome` of `entry`; add in input order so "first" is the first line.
    public mutating func add(_ outcome: WarmOutcome, for entry: WarmList.Entry) {
        switch outcome {
        case .stored: stored += 1
        case .refreshed: refreshed += 1
        case .fresh: fresh += 1
        case .notStored(let reason):
            notStored += 1
            note("not stored", reason, entry)
        case .refused(let status, let code):
            refused += 1
            note("refused", "\(status) \(code)", entry)
        case .failed(let reason):
            failed += 1
            note("failed", reason, entry)
        }
    }

    private mutating func note(_ kind: String, _ text: String, _ entry: WarmList.Entry) {
        if let index = reasons.firstIndex(where: { $0.kind == kind && $0.text == text }) {
            reasons[index].count += 1
        } else {
            reasons.append(Reason(kind: kind, text: text, count: 1, first: entry))
        }
    }

    /// The summary lines (each ending in `\n`) for a run of `seconds`.
    public func text(seconds: Double) -> String {
        let order = ["not stored", "refused", "failed"]
        var out = "\(total) \(total == 1 ? "path" : "paths") in \(WarmProgress.seconds(seconds)): \(stored) stored, "
            + "\(refreshed) refreshed, \(fresh) already fresh, \(notStored) not stored, \(refused) refused, \(failed) failed\n"
        for kind in order {
            for reason in reasons where reason.kind == kind {
                out += "\(kind) \(reason.text): \(reason.count) (first: line \(reason.first.line), \(reason.first.target))\n"
            }
        }
        return out
    }
}
