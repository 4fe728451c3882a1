import Synchronization

/// Per-tier counters exported by `/_mediactl/metrics` (Prometheus counters, monotonically increasing).
final class TierCounters: Sendable {
    /// The counter names, as exported (`mediactl_<name>_total{tier="…"}`).
    enum Counter: String, CaseIterable, Sendable {
        case hits, misses, revalidations, stored, skipped, evicted, expired, purged, shredded, refused
    }

    private let counts = Mutex<[Counter: Int]>([:])

    func bump(_ counter: Counter, by amount: Int = 1) {
        counts.withLock { $0[counter, default: 0] += amount }
    }

    func value(_ counter: Counter) -> Int { counts.withLock { $0[counter] ?? 0 } }

    var snapshot: [(counter: Counter, value: Int)] {
        let values = counts.withLock { $0 }
        return Counter.allCases.map { ($0, values[$0] ?? 0) }
    }
}
