import MediaCore
import Synchronization

/// What `/_mediactl/metrics` says about the answered requests (docs/operations.md, "Metrics"), recorded by the HTTP
/// front (``MediaServer``) once per answer on the public listener:
/// - `mediactl_request_duration_seconds{tier,outcome}`: a histogram of the time from the request's arrival to its
///   answer, by tier (`""` for a request no route matched) and ``Outcome``;
/// - `mediactl_responses_total{class}`: answers by status class (`1xx` … `5xx`).
///
/// Lock-free on the request path: the tiers of the policies in force at start have their histograms in an immutable
/// table; a tier added by a reload gets its own on first use, under a lock taken only then and for its lookups.
public final class RequestMetrics: Sendable {
    /// The outcome label: what the cache did for the answer.
    public enum Outcome: String, CaseIterable, Sendable {
        /// Served from a stored response, fresh (negative entries included).
        case hit
        /// Went to the origin: fetched, revalidated, or joined another request's exchange.
        case miss
        /// A stored response served stale (`stale-while-revalidate`, `stale-if-error`, `max-stale`).
        case stale
        /// Answered with a 4xx that no stored response gave (no route, 401, an origin's 404 passed on, …).
        case refused
        /// Answered with a 5xx.
        case error
        /// No cache decision (a CORS preflight answered by mediactl).
        case none

        /// The outcome of an answer with `status` and `Cache-Status` value `cacheStatus` (``AccessLogCacheOutcome``).
        public static func of(cacheStatus: String?, status: HTTPStatus) -> Outcome {
            if let cacheStatus, isFreshHit(cacheStatus) { return .hit }
            // A stored response served (a negative entry's 404 or 502 included) counts as the cache's, whatever its status.
            switch AccessLogCacheOutcome.of(cacheStatus: cacheStatus, status: status.code) {
            case .hit: return .hit
            case .stale: return .stale
            case _ where status.code >= 500: return .error
            case .refused: return .refused
            case .miss, .coalesced, .revalidated: return status.code >= 400 ? .refused : .miss
            case nil: return .none
            }
        }
    }

    /// Whether `cacheStatus` is exactly `mediactl; hit; ttl=<digits>`: the memory-hit path's answer, told apart without
    /// parsing every parameter (a stale hit has a `-` or a `detail`).
    @inline(__always)
    static func isFreshHit(_ cacheStatus: String) -> Bool {
        var text = cacheStatus
        return text.withUTF8 { bytes in
            let prefix = freshHitPrefix
            guard bytes.count > prefix.count, bytes.count <= prefix.count + 10 else { return false }
            for index in 0..<prefix.count where bytes[index] != prefix[index] { return false }
            for index in prefix.count..<bytes.count where !(48...57).contains(bytes[index]) { return false }
            return true
        }
    }

    private static let freshHitPrefix = Array("mediactl; hit; ttl=".utf8)

    /// The histograms of one tier, by ``Outcome`` (in `allCases` order).
    final class TierHistograms: Sendable {
        let byOutcome = Outcome.allCases.map { _ in LatencyHistogram() }
    }

    /// The tiers at start (and `""`), as a list: a few short names compare faster than a hash (the request path looks
    /// one up per answer).
    private let known: [(name: String, histograms: TierHistograms)]
    /// ``known``'s names alone, searched without touching (retaining) the histograms of the tiers passed over.
    private let knownNames: [String]
    private let added = Mutex<[String: TierHistograms]>([:])
    private let statusClasses = (1...5).map { _ in LatencyHistogram.Cell() }

    /// Metrics for the tiers named `tiers` (more are added as they are first seen).
    public init(tiers: some Sequence<String>) {
        var table: [String: TierHistograms] = ["": TierHistograms()]
        for tier in tiers { table[tier] = TierHistograms() }
        known = table.map { ($0.key, $0.value) }
        knownNames = known.map(\.name)
    }

    /// Records one answer: its tier (`nil` without a route), `Cache-Status`, status and duration in microseconds.
    public func record(tier: String?, cacheStatus: String?, status: HTTPStatus, microseconds: Int64) {
        let outcome = Outcome.of(cacheStatus: cacheStatus, status: status)
        histograms(tier ?? "").byOutcome[Self.index(outcome)].observe(microseconds: microseconds)
        let statusClass = status.code / 100
        if (1...5).contains(statusClass) { statusClasses[statusClass - 1].add(1) }
    }

    private func histograms(_ tier: String) -> TierHistograms {
        let found = knownNames.withUnsafeBufferPointer { names in names.firstIndex(of: tier) }
        if let found { return known[found].histograms }
        return added.withLock { table in
            if let histograms = table[tier] { return histograms }
            let histograms = TierHistograms()
            table[tier] = histograms
            return histograms
        }
    }

    private static func index(_ outcome: Outcome) -> Int {
        switch outcome {
        case .hit: 0
        case .miss: 1
        case .stale: 2
        case .refused: 3
        case .error: 4
        case .none: 5
        }
    }

    /// The exposition lines: the duration histogram of every (tier, outcome) that saw a request, by tier name then
    /// outcome, and the five status classes.
    func lines() -> [String] {
        var lines = [
            "# HELP mediactl_request_duration_seconds Time from a request's arrival to its answer on the public listener, by tier (empty: no route) and outcome: hit, miss (fetched, revalidated or joined another request's fetch), stale, refused (4xx without a stored response), error (5xx), none (a CORS preflight).",
            "# TYPE mediactl_request_duration_seconds histogram",
        ]
        let table = Dictionary(known, uniquingKeysWith: { first, _ in first }).merging(added.withLock { $0 }) { first, _ in first }
        for tier in table.keys.sorted() {
            for (outcome, histogram) in zip(Outcome.allCases, table[tier]!.byOutcome) where histogram.count > 0 {
                lines += histogram.lines(name: "mediactl_request_duration_seconds",
                                         labels: "tier=\"\(tier)\",outcome=\"\(outcome.rawValue)\"")
            }
        }
        lines.append("# HELP mediactl_responses_total Answers on the public listener by status class.")
        lines.append("# TYPE mediactl_responses_total counter")
        for (index, cell) in statusClasses.enumerated() {
            lines.append("mediactl_responses_total{class=\"\(index + 1)xx\"} \(cell.load)")
        }
        return lines
    }
}
