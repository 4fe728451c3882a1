import Synchronization

/// Per-tier counters exported by `/_mediactl/metrics` (Prometheus counters, monotonically increasing).
/// Lock-free: one relaxed atomic per counter (a `Mutex` here was contended by every connection thread).
final class TierCounters: Sendable {
    /// The counter names, as exported (`mediactl_<name>_total{tier="…"}`).
    enum Counter: String, CaseIterable, Sendable {
        case hits, misses, revalidations, coalesced, stored, skipped, evicted, expired, purged, shredded, refused
        case variantsDerived = "variants_derived"

        /// The `# HELP` text of `mediactl_<name>_total`.
        var help: String {
            switch self {
            case .hits: "Requests answered from a stored response (fresh, or stale where allowed)."
            case .misses: "Requests with no usable stored response, each counted, including those that joined another request's origin fetch (see coalesced)."
            case .revalidations: "Requests that sent a conditional request to the origin for a stored response."
            case .coalesced: "Misses and revalidations answered by another request's origin exchange (single-flight) instead of their own; origin exchanges = misses + revalidations - coalesced."
            case .stored: "Origin responses stored (audit event store)."
            case .skipped: "Origin responses not stored by decision: no-store, not storable, an error or redirect status (audit event skip); refusals are counted in refused, also audited skip."
            case .evicted: "Stored responses evicted to stay within a budget, or removed as corrupt."
            case .expired: "Stored responses removed past their expiry."
            case .purged: "Stored responses removed by a purge (route, credential or all)."
            case .shredded: "Sealed (encrypted-disk) files overwritten and removed."
            case .variantsDerived: "Derived images (variants) made from a source, stored or not (docs/variants.md); a variant request's source is counted in hits or misses."
            case .refused: "Origin answers refused before storage (not an image, corrupt, over a limit, a redirect, an error), audited skip; requests refused at admission (400, 401, 404) are not counted."
            }
        }
    }

    private let hits = Atomic<Int>(0), misses = Atomic<Int>(0), revalidations = Atomic<Int>(0), coalesced = Atomic<Int>(0)
    private let stored = Atomic<Int>(0), skipped = Atomic<Int>(0), evicted = Atomic<Int>(0)
    private let expired = Atomic<Int>(0), purged = Atomic<Int>(0), shredded = Atomic<Int>(0)
    private let refused = Atomic<Int>(0), variantsDerived = Atomic<Int>(0)
    /// The tier's signed requests by outcome.
    let signed = SignedURLCounters()

    private func cell<T>(_ counter: Counter, _ body: (borrowing Atomic<Int>) -> T) -> T {
        switch counter {
        case .hits: body(hits)
        case .misses: body(misses)
        case .revalidations: body(revalidations)
        case .coalesced: body(coalesced)
        case .stored: body(stored)
        case .skipped: body(skipped)
        case .evicted: body(evicted)
        case .expired: body(expired)
        case .purged: body(purged)
        case .shredded: body(shredded)
        case .refused: body(refused)
        case .variantsDerived: body(variantsDerived)
        }
    }

    func bump(_ counter: Counter, by amount: Int = 1) {
        _ = cell(counter) { $0.add(amount, ordering: .relaxed) }
    }

    func value(_ counter: Counter) -> Int { cell(counter) { $0.load(ordering: .relaxed) } }

    var snapshot: [(counter: Counter, value: Int)] {
        Counter.allCases.map { ($0, value($0)) }
    }
}
